import type { SearchFilters } from '../../../../schemas/search.ts';
import { SqlParams } from './sql-params.ts';

export interface VisibilityOptions {
  filters: SearchFilters | undefined;
  excludeGeoAgents: boolean;
}

/**
 * WHERE conditions (over `search_agent_facts f`) for the request's filters. Agents their owner made not
 * public are never listed. Without a `state` filter only active agents are listed; `state` values combine as (active OR inactive) AND (responsive OR unresponsive), each
 * side unconstrained when none of its values is given (active is the default of the first).
 * Array filters match when the agent has any of the values; `has_readme`/`has_location` false do not filter.
 */
export function filterConditions({ filters = {}, excludeGeoAgents }: VisibilityOptions, params: SqlParams): string[] {
  const conditions: string[] = ['f.is_public = 1'];
  const states = new Set(filters.state ?? []);
  const activity = [
    ...(states.has('active') || !states.has('inactive') ? ['f.is_active = 1'] : []),
    ...(states.has('inactive') ? ['f.is_active = 0'] : []),
  ];
  if (activity.length === 1) conditions.push(activity[0]!);
  const probe = [
    ...(states.has('responsive') ? ['f.last_probe_ok = 1'] : []),
    ...(states.has('unresponsive') ? ['coalesce(f.last_probe_ok, 0) = 0'] : []),
  ];
  if (probe.length === 1) conditions.push(probe[0]!);

  if (filters.category?.length) conditions.push(`f.category IN ${params.list(filters.category)}`);
  if (filters.agent_type?.length) conditions.push(`f.agent_type IN ${params.list(filters.agent_type)}`);
  if (filters.protocol_digest?.length) {
    conditions.push(
      `EXISTS (SELECT 1 FROM search_agent_protocols p WHERE p.agent_rowid = f.agent_rowid AND p.digest IN ${params.list(filters.protocol_digest)})`,
    );
  }
  if (filters.tags?.length) {
    const tags = filters.tags.map((tag) => tag.toLowerCase());
    conditions.push(`EXISTS (SELECT 1 FROM search_agent_tags t WHERE t.agent_rowid = f.agent_rowid AND t.tag IN ${params.list(tags)})`);
  }
  if (filters.has_readme) conditions.push('f.has_readme = 1');
  if (filters.has_location) conditions.push('f.has_location = 1');
  if (excludeGeoAgents) conditions.push('f.has_location = 0');
  if (filters.n_interactions !== undefined) conditions.push(`f.recent_interactions >= ${params.add(filters.n_interactions)}`);
  return conditions;
}

/** The conditions of the default visibility: public and active agents, the ones search_agents_fts marks listed. */
const LISTED_CONDITIONS = ['f.is_public = 1', 'f.is_active = 1'];

/** True when the request lists exactly the listed agents, so the FTS index alone can filter and count them. */
export function listsOnlyListed(options: VisibilityOptions): boolean {
  const conditions = filterConditions(options, new SqlParams());
  return conditions.length === LISTED_CONDITIONS.length && conditions.every((condition, i) => condition === LISTED_CONDITIONS[i]);
}
