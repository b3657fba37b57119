/** The agents table (migrations/0001_core.sql) as D1 returns a row: JSON columns are text, parsed by columns.ts. */
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
  /** An AgentStatus, as deriveStatus wrote it (columns.ts reads it). */
  status: string;
  is_active: number;
  is_public: number;
  last_status_update: string | null;
  status_timestamp: number | null;
  attestation_timestamp: number | null;
  /** ISO 8601; the almanac registration lapses then unless renewed (migrations/0011_almanac_expiry.sql). */
  registration_expires_at: string | null;
  last_probe_at: string | null;
  last_probe_ok: number | null;
  last_probe_detail: string | null;
  total_interactions: number;
  recent_interactions: number;
  /** Written by the cron's AgentRank (interactions/agent-rank.ts, migrations/0012). */
  cross_account_interactions: number;
  agent_rank: number;
  /** Written with the agent's text (search/text-quality.ts). */
  text_quality: number;
  created_at: string;
  last_updated: string;
}

/**
 * The columns of the wire's agent record (record.ts). Search pages select these and nothing else (not the
 * stored profile, metadata or endpoints), so D1 ships no more than the response carries.
 */
const AGENT_RECORD_COLUMNS = [
  'address',
  'name',
  'readme',
  'status',
  'total_interactions',
  'recent_interactions',
  'cross_account_interactions',
  'agent_rank',
  'rating',
  'agent_type',
  'category',
  'featured',
  'geo_location',
  'last_updated',
  'created_at',
  'handle',
  'description',
  'tags',
  'protocols',
  'use_cases',
  'functions',
] as const satisfies readonly (keyof AgentRow)[];

/** What an agent record is made from: a row narrowed to AGENT_RECORD_COLUMNS. */
export type AgentRecordRow = Pick<AgentRow, (typeof AGENT_RECORD_COLUMNS)[number]>;

/** AGENT_RECORD_COLUMNS as selections of the agents table joined as `a`. */
export const AGENT_RECORD_SELECTION = AGENT_RECORD_COLUMNS.map((column) => `a.${column}`).join(', ');

/**
 * The columns of the almanac's record (record.ts) and the resolver's listing check: an almanac lookup reads
 * these and not the README, use cases and functions that make up most of a row's bytes.
 */
export const ALMANAC_COLUMNS = [
  'address',
  'name',
  'handle',
  'account_id',
  'is_active',
  'is_public',
  'status',
  'registration_expires_at',
  'last_updated',
  'url',
  'endpoints',
  'agent_type',
  'protocols',
  'metadata',
] as const satisfies readonly (keyof AgentRow)[];

export type AlmanacRow = Pick<AgentRow, (typeof ALMANAC_COLUMNS)[number]>;
