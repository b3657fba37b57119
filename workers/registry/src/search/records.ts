import type { AgentRecord } from '../../../../schemas/search.ts';

/** Parses a JSON column, falling back when a row holds something else. */
export function jsonColumn<T>(text: unknown, fallback: T): T {
  if (typeof text !== 'string' || text === '') return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);

type StoredFunction = { name?: unknown; description?: unknown; parameters?: { name?: unknown; description?: unknown; required?: unknown }[] };

/** The stored `functions` column in its wire form, whatever older rows left out. */
function functionsOf(value: unknown): AgentRecord['functions'] {
  const list = Array.isArray(value) ? (value as StoredFunction[]) : [];
  return list.map((fn) => ({
    name: String(fn?.name ?? ''),
    description: String(fn?.description ?? ''),
    parameters: (Array.isArray(fn?.parameters) ? fn.parameters : []).map((p) => ({
      name: String(p?.name ?? ''),
      description: String(p?.description ?? ''),
      required: p?.required !== false,
    })),
  }));
}

/**
 * The agents columns toAgentRecord reads, as `a.` selections: search pages read these and nothing else (not
 * the stored profile, metadata or endpoints), so D1 ships no more than the response carries.
 */
export const AGENT_RECORD_COLUMNS = [
  ...['address', 'name', 'readme', 'status', 'total_interactions', 'recent_interactions', 'rating', 'agent_type', 'category', 'featured'],
  ...['geo_location', 'last_updated', 'created_at', 'handle', 'description', 'tags', 'protocols', 'use_cases', 'functions'],
]
  .map((column) => `a.${column}`)
  .join(', ');

/** An agents row (with its rowid and score columns) as the wire's agent record. */
export function toAgentRecord(row: Record<string, unknown>): AgentRecord {
  const geo = jsonColumn<unknown>(row.geo_location, null);
  const status = row.status === 'active' || row.status === 'local' ? row.status : 'offline';
  return {
    address: String(row.address),
    name: String(row.name ?? ''),
    readme: String(row.readme ?? ''),
    status,
    total_interactions: Number(row.total_interactions ?? 0),
    recent_interactions: Number(row.recent_interactions ?? 0),
    rating: row.rating === null || row.rating === undefined ? null : Number(row.rating),
    type: String(row.agent_type ?? 'custom'),
    category: String(row.category ?? 'community'),
    featured: Boolean(row.featured),
    geo_location: geo && typeof geo === 'object' && !Array.isArray(geo) ? (geo as Record<string, unknown>) : null,
    last_updated: String(row.last_updated),
    created_at: String(row.created_at),
    handle: typeof row.handle === 'string' ? row.handle : null,
    description: String(row.description ?? ''),
    tags: strings(jsonColumn(row.tags, [])),
    protocols: strings(jsonColumn(row.protocols, [])),
    use_cases: strings(jsonColumn(row.use_cases, [])),
    functions: functionsOf(jsonColumn<unknown>(row.functions, [])),
  };
}
