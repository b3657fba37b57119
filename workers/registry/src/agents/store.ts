import type { AgentEndpoint, ProfileRecord, ReadmeAnalysis } from '../../../../schemas/registry.ts';
import type { AgentStatus } from '../../../../schemas/search.ts';
import { indexPendingAgents } from '../search/semantic-index.ts';
import { d1Runner } from '../search/sql-runner.ts';
import { agentColumns } from './columns.ts';
import { ALMANAC_COLUMNS, type AgentRow, type AlmanacRow } from './row.ts';
import { deriveStatus, webhookOf } from './status.ts';
import { textQuality } from '../search/text-quality.ts';

/** Reads and writes of the agents table (row.ts); its wire forms are made in record.ts. */

/**
 * How long a registration stays in the almanac without renewal: uAgents re-attests hourly and our agents
 * re-register every 30 minutes, so two days outlive any restart (docs/decisions/0112).
 */
export const REGISTRATION_TTL_MS = 48 * 60 * 60 * 1000;

/** Everything an owner or a signed attestation can set on an agent. */
export interface AgentState {
  name: string;
  handle: string | null;
  url: string | null;
  endpoints: AgentEndpoint[];
  readme: string;
  readmeAnalysis: ReadmeAnalysis;
  protocols: string[];
  profile: ProfileRecord;
  metadata: Record<string, unknown> | null;
  agentType: string;
  geoLocation: Record<string, unknown> | null;
  isActive: boolean;
  isPublic: boolean;
}

export async function findAgent(db: Pick<D1Database, 'prepare'>, address: string): Promise<AgentRow | null> {
  return db.prepare('SELECT rowid, * FROM agents WHERE address = ?').bind(address).first<AgentRow>();
}

const FIND_ALMANAC_ROW = `SELECT ${ALMANAC_COLUMNS.join(', ')} FROM agents WHERE address = ?`;

export async function findAlmanacRow(db: Pick<D1Database, 'prepare'>, address: string): Promise<AlmanacRow | null> {
  return db.prepare(FIND_ALMANAC_ROW).bind(address).first<AlmanacRow>();
}

/** Whether an agent is registered at the address: its unique index alone, no row read. */
export async function agentExists(db: Pick<D1Database, 'prepare'>, address: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 AS found FROM agents WHERE address = ?').bind(address).first()) !== null;
}

export function stateOf(row: AgentRow): AgentState {
  return {
    name: row.name,
    handle: row.handle,
    url: row.url,
    endpoints: agentColumns.endpoints(row.endpoints),
    readme: row.readme,
    readmeAnalysis: {
      tags: agentColumns.tags(row.tags),
      domain_tags: agentColumns.domain_tags(row.domain_tags),
      invalid_domain_badges: [],
      description: row.description,
      use_cases: agentColumns.use_cases(row.use_cases),
      functions: agentColumns.functions(row.functions),
    },
    protocols: agentColumns.protocols(row.protocols),
    profile: agentColumns.profile(row.profile),
    metadata: agentColumns.metadata(row.metadata),
    agentType: row.agent_type,
    geoLocation: agentColumns.geo_location(row.geo_location),
    isActive: row.is_active === 1,
    isPublic: row.is_public === 1,
  };
}

export function emptyState(): AgentState {
  return {
    name: '',
    handle: null,
    url: null,
    endpoints: [],
    readme: '',
    readmeAnalysis: { tags: [], domain_tags: [], invalid_domain_badges: [], description: '', use_cases: [], functions: [] },
    protocols: [],
    profile: { description: '', avatar_url: null, banner_url: null, starter_prompts: [] },
    metadata: null,
    agentType: 'uagent',
    geoLocation: null,
    isActive: true,
    isPublic: true,
  };
}

/**
 * Creates or replaces an agent's settable fields, keeping what registration does not own (created_at,
 * counters, probe results). `status` is derived here, so every write path keeps it true.
 */
export async function saveAgent(
  db: Pick<D1Database, 'prepare' | 'batch'>,
  address: string,
  accountId: string | null,
  state: AgentState,
  previous: AgentRow | null,
  now: string,
  signed: { attestationTimestamp?: number } = {},
): Promise<void> {
  const analysis = state.readmeAnalysis;
  // A probe result speaks for the webhook it probed; a new webhook starts unprobed.
  const sameWebhook =
    previous !== null && webhookOf({ url: previous.url, endpoints: agentColumns.endpoints(previous.endpoints) }) === webhookOf(state);
  const probeOk = sameWebhook ? previous.last_probe_ok : null;
  const probeAt = sameWebhook ? previous.last_probe_at : null;
  const status = deriveStatus({ url: state.url, endpoints: state.endpoints, is_active: state.isActive, last_probe_ok: probeOk });
  await db
    .prepare(
      `INSERT INTO agents (address, account_id, name, handle, url, endpoints, readme, description, use_cases, functions, tags, domain_tags,
         protocols, profile, metadata, agent_type, geo_location, status, is_active, is_public, attestation_timestamp, last_probe_ok, last_probe_at,
         created_at, last_updated, registration_expires_at, text_quality)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?23, ?24, ?22, ?22, ?25, ?26)
       ON CONFLICT (address) DO UPDATE SET
         account_id = coalesce(excluded.account_id, agents.account_id), name = excluded.name, handle = excluded.handle, url = excluded.url,
         endpoints = excluded.endpoints, readme = excluded.readme, description = excluded.description, use_cases = excluded.use_cases,
         functions = excluded.functions, tags = excluded.tags, domain_tags = excluded.domain_tags, protocols = excluded.protocols,
         profile = excluded.profile, metadata = excluded.metadata, agent_type = excluded.agent_type, geo_location = excluded.geo_location,
         status = excluded.status, is_active = excluded.is_active, is_public = excluded.is_public,
         last_probe_ok = excluded.last_probe_ok, last_probe_at = excluded.last_probe_at,
         attestation_timestamp = coalesce(excluded.attestation_timestamp, agents.attestation_timestamp), last_updated = excluded.last_updated,
         registration_expires_at = excluded.registration_expires_at, text_quality = excluded.text_quality`,
    )
    .bind(
      address,
      accountId,
      state.name,
      state.handle,
      state.url,
      JSON.stringify(state.endpoints),
      state.readme,
      analysis.description || state.profile.description,
      JSON.stringify(analysis.use_cases),
      JSON.stringify(analysis.functions),
      JSON.stringify(analysis.tags),
      JSON.stringify(analysis.domain_tags),
      JSON.stringify(state.protocols),
      JSON.stringify(state.profile),
      state.metadata ? JSON.stringify(state.metadata) : null,
      state.agentType,
      state.geoLocation ? JSON.stringify(state.geoLocation) : null,
      status,
      state.isActive ? 1 : 0,
      state.isPublic ? 1 : 0,
      signed.attestationTimestamp ?? null,
      now,
      probeOk,
      probeAt,
      new Date(Date.parse(now) + REGISTRATION_TTL_MS).toISOString(),
      textQuality({
        name: state.name,
        description: analysis.description || state.profile.description,
        tags: analysis.tags,
        useCases: analysis.use_cases,
        readme: state.readme,
      }),
    )
    .run();
  // Semantic search reads the agent's vectors from the moment it is registered, not from the next cron.
  await indexPendingAgents(d1Runner(db), { address });
}

/** A signed status update: active or not, as of `timestamp` (unix seconds, signed by the agent). */
export async function saveActivity(
  db: Pick<D1Database, 'prepare'>,
  row: AgentRow,
  isActive: boolean,
  timestamp: number,
  now: string,
): Promise<AgentStatus> {
  const endpoints = agentColumns.endpoints(row.endpoints);
  const status = deriveStatus({ url: row.url, endpoints, is_active: isActive, last_probe_ok: row.last_probe_ok });
  await db
    .prepare(
      'UPDATE agents SET is_active = ?, status = ?, status_timestamp = ?, last_status_update = ?, last_updated = ? WHERE address = ?',
    )
    .bind(isActive ? 1 : 0, status, timestamp, now, now, row.address)
    .run();
  return status;
}

export async function deleteAgent(db: Pick<D1Database, 'prepare'>, address: string): Promise<boolean> {
  const result = await db.prepare('DELETE FROM agents WHERE address = ?').bind(address).run();
  return result.meta.changes > 0;
}
