import type { AgentDetail, AgentEndpoint, AgentFunction, DomainTag, ReadmeAnalysis } from '../../../../schemas/registry.ts';
import { type AgentStatus, deriveStatus, webhookOf } from './status.ts';

/** The agents table: one row per agent, JSON columns parsed here and nowhere else. */

export interface AgentRow {
  rowid: number;
  address: string;
  account_id: string | null;
  name: string;
  handle: string | null;
  url: string | null;
  endpoints: string;
  readme: string;
  description: string;
  use_cases: string;
  functions: string;
  tags: string;
  domain_tags: string;
  protocols: string;
  profile: string;
  metadata: string | null;
  agent_type: string;
  category: string;
  featured: number;
  rating: number | null;
  geo_location: string | null;
  status: AgentStatus;
  is_active: number;
  is_public: number;
  last_status_update: string | null;
  status_timestamp: number | null;
  attestation_timestamp: number | null;
  last_probe_at: string | null;
  last_probe_ok: number | null;
  last_probe_detail: string | null;
  total_interactions: number;
  recent_interactions: number;
  created_at: string;
  last_updated: string;
}

export interface AgentProfile {
  description: string;
  avatar_url: string | null;
  banner_url: string | null;
  starter_prompts: string[];
}

/** Everything an owner or a signed attestation can set on an agent. */
export interface AgentState {
  name: string;
  handle: string | null;
  url: string | null;
  endpoints: AgentEndpoint[];
  readme: string;
  readmeAnalysis: ReadmeAnalysis;
  protocols: string[];
  profile: AgentProfile;
  metadata: Record<string, unknown> | null;
  agentType: string;
  geoLocation: Record<string, unknown> | null;
  isActive: boolean;
  isPublic: boolean;
}

function parse<T>(text: string | null, fallback: T): T {
  if (!text) return fallback;
  try {
    return (JSON.parse(text) as T) ?? fallback;
  } catch {
    return fallback;
  }
}

export async function findAgent(db: D1Database, address: string): Promise<AgentRow | null> {
  return db.prepare('SELECT rowid, * FROM agents WHERE address = ?').bind(address).first<AgentRow>();
}

export async function handleOwner(db: D1Database, handle: string): Promise<string | null> {
  return (await db.prepare('SELECT address FROM agents WHERE handle = ?').bind(handle).first<{ address: string }>())?.address ?? null;
}

export function stateOf(row: AgentRow): AgentState {
  return {
    name: row.name,
    handle: row.handle,
    url: row.url,
    endpoints: parse<AgentEndpoint[]>(row.endpoints, []),
    readme: row.readme,
    readmeAnalysis: {
      tags: parse<string[]>(row.tags, []),
      domain_tags: parse<DomainTag[]>(row.domain_tags, []),
      invalid_domain_badges: [],
      description: row.description,
      use_cases: parse<string[]>(row.use_cases, []),
      functions: parse<AgentFunction[]>(row.functions, []),
    },
    protocols: parse<string[]>(row.protocols, []),
    profile: { description: '', avatar_url: null, banner_url: null, starter_prompts: [], ...parse<Partial<AgentProfile>>(row.profile, {}) },
    metadata: parse<Record<string, unknown> | null>(row.metadata, null),
    agentType: row.agent_type,
    geoLocation: parse<Record<string, unknown> | null>(row.geo_location, null),
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
  db: D1Database,
  address: string,
  accountId: string | null,
  state: AgentState,
  previous: AgentRow | null,
  now: string,
  signed: { attestationTimestamp?: number } = {},
): Promise<void> {
  const analysis = state.readmeAnalysis;
  // A probe result speaks for the webhook it probed; a new webhook starts unprobed.
  const sameWebhook = previous !== null && webhookOf({ url: previous.url, endpoints: parse(previous.endpoints, []) }) === webhookOf(state);
  const probeOk = sameWebhook ? previous.last_probe_ok : null;
  const probeAt = sameWebhook ? previous.last_probe_at : null;
  const status = deriveStatus({ url: state.url, endpoints: state.endpoints, is_active: state.isActive, last_probe_ok: probeOk });
  await db
    .prepare(
      `INSERT INTO agents (address, account_id, name, handle, url, endpoints, readme, description, use_cases, functions, tags, domain_tags,
         protocols, profile, metadata, agent_type, geo_location, status, is_active, is_public, attestation_timestamp, last_probe_ok, last_probe_at,
         created_at, last_updated)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?23, ?24, ?22, ?22)
       ON CONFLICT (address) DO UPDATE SET
         account_id = coalesce(excluded.account_id, agents.account_id), name = excluded.name, handle = excluded.handle, url = excluded.url,
         endpoints = excluded.endpoints, readme = excluded.readme, description = excluded.description, use_cases = excluded.use_cases,
         functions = excluded.functions, tags = excluded.tags, domain_tags = excluded.domain_tags, protocols = excluded.protocols,
         profile = excluded.profile, metadata = excluded.metadata, agent_type = excluded.agent_type, geo_location = excluded.geo_location,
         status = excluded.status, is_active = excluded.is_active, is_public = excluded.is_public,
         last_probe_ok = excluded.last_probe_ok, last_probe_at = excluded.last_probe_at,
         attestation_timestamp = coalesce(excluded.attestation_timestamp, agents.attestation_timestamp), last_updated = excluded.last_updated`,
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
    )
    .run();
}

/** A signed status update: active or not, as of `timestamp` (unix seconds, signed by the agent). */
export async function saveActivity(db: D1Database, row: AgentRow, isActive: boolean, timestamp: number, now: string): Promise<AgentStatus> {
  const status = deriveStatus({ url: row.url, endpoints: parse(row.endpoints, []), is_active: isActive, last_probe_ok: row.last_probe_ok });
  await db
    .prepare('UPDATE agents SET is_active = ?, status = ?, status_timestamp = ?, last_status_update = ?, last_updated = ? WHERE address = ?')
    .bind(isActive ? 1 : 0, status, timestamp, now, now, row.address)
    .run();
  return status;
}

export async function deleteAgent(db: D1Database, address: string): Promise<boolean> {
  const result = await db.prepare('DELETE FROM agents WHERE address = ?').bind(address).run();
  return result.meta.changes > 0;
}

export function toAgentDetail(row: AgentRow): AgentDetail {
  const state = stateOf(row);
  return {
    address: row.address,
    name: row.name,
    readme: row.readme,
    status: row.status,
    total_interactions: row.total_interactions,
    recent_interactions: row.recent_interactions,
    rating: row.rating,
    type: row.agent_type,
    category: row.category,
    featured: row.featured === 1,
    geo_location: state.geoLocation,
    last_updated: row.last_updated,
    created_at: row.created_at,
    handle: row.handle,
    description: row.description,
    tags: state.readmeAnalysis.tags,
    protocols: state.protocols,
    url: row.url,
    endpoints: state.endpoints.length ? state.endpoints : row.url ? [{ url: row.url, weight: 1 }] : [],
    domain_tags: state.readmeAnalysis.domain_tags,
    use_cases: state.readmeAnalysis.use_cases,
    functions: state.readmeAnalysis.functions,
    profile: state.profile,
    metadata: state.metadata,
    is_active: state.isActive,
    public: state.isPublic,
    last_status_update: row.last_status_update,
    last_probe_at: row.last_probe_at,
    last_probe_ok: row.last_probe_ok === null ? null : row.last_probe_ok === 1,
  };
}
