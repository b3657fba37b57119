import type { AgentDetail, AlmanacRecord } from '../../../../schemas/registry.ts';
import type { AgentRecord } from '../../../../schemas/search.ts';
import { agentColumns } from './columns.ts';
import type { AgentRecordRow, AgentRow, AlmanacRow } from './row.ts';
import { almanacTypeOf } from './status.ts';
import { REGISTRATION_TTL_MS } from './store.ts';

/**
 * The one mapping from a stored agent to its wire forms: search's agent record, the detail that extends it,
 * and the almanac's record. Each field is read one way, so search, detail and almanac agree about an agent.
 */

export function toAgentRecord(row: AgentRecordRow): AgentRecord {
  return {
    address: row.address,
    name: row.name,
    readme: row.readme,
    status: agentColumns.status(row.status),
    total_interactions: row.total_interactions,
    recent_interactions: row.recent_interactions,
    cross_account_interactions: row.cross_account_interactions,
    agent_rank: row.agent_rank,
    rating: row.rating,
    type: row.agent_type,
    category: row.category,
    featured: row.featured === 1,
    geo_location: agentColumns.geo_location(row.geo_location),
    last_updated: row.last_updated,
    created_at: row.created_at,
    handle: row.handle,
    description: row.description,
    tags: agentColumns.tags(row.tags),
    protocols: agentColumns.protocols(row.protocols),
    use_cases: agentColumns.use_cases(row.use_cases),
    functions: agentColumns.functions(row.functions),
  };
}

/** The registered endpoints; an agent that registered only a url is reached there. */
function endpointsOf(row: Pick<AgentRow, 'url' | 'endpoints'>): AlmanacRecord['endpoints'] {
  const endpoints = agentColumns.endpoints(row.endpoints);
  return endpoints.length ? endpoints : row.url ? [{ url: row.url, weight: 1 }] : [];
}

export function toAgentDetail(row: AgentRow): AgentDetail {
  return {
    ...toAgentRecord(row),
    url: row.url,
    endpoints: endpointsOf(row),
    domain_tags: agentColumns.domain_tags(row.domain_tags),
    profile: agentColumns.profile(row.profile),
    metadata: agentColumns.metadata(row.metadata),
    is_active: row.is_active === 1,
    public: row.is_public === 1,
    last_status_update: row.last_status_update,
    last_probe_at: row.last_probe_at,
    last_probe_ok: row.last_probe_ok === null ? null : row.last_probe_ok === 1,
  };
}

/** The almanac's status in uAgents' set: signed inactive, not reachable (expired, failed probe, loopback), or active. */
function almanacStatus(row: Pick<AgentRow, 'is_active' | 'status'>, expired: boolean): AlmanacRecord['status'] {
  if (row.is_active !== 1) return 'inactive';
  return !expired && agentColumns.status(row.status) === 'active' ? 'active' : 'offline';
}

/** An expired registration keeps its record (the CLI shows how long ago it lapsed) and resolves to no endpoint. */
export function toAlmanacRecord(row: AlmanacRow, now = new Date()): AlmanacRecord {
  // A row written without the column (a seed, a bench) counts from its last update.
  const expiry = row.registration_expires_at ?? new Date(Date.parse(row.last_updated) + REGISTRATION_TTL_MS).toISOString();
  const expired = expiry <= now.toISOString();
  const endpoints = endpointsOf(row);
  return {
    address: row.address,
    name: row.name,
    status: almanacStatus(row, expired),
    type: almanacTypeOf({ url: row.url, endpoints }, row.agent_type),
    url: expired ? null : row.url,
    endpoints: expired ? [] : endpoints,
    // The almanac's digests are bare hex, as the Agentverse CLI compares them (registration takes `proto:…`).
    protocols: agentColumns.protocols(row.protocols).map((digest) => digest.replace(/^proto:/, '')),
    metadata: agentColumns.metadata(row.metadata),
    domain_name: null,
    expiry,
    last_updated: row.last_updated,
    registered: row.account_id !== null,
  };
}
