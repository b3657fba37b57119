import { SEARCH_LIMIT_DEFAULT, type AgentSearchRequest, type AgentSort } from '../../../../schemas/search.ts';

/** The order and window of an agent search, shared by browsing and text search. */

/** Sort keys, as columns of search_agent_facts `f`. */
export const SORT_COLUMNS: Record<Exclude<AgentSort, 'relevancy'>, string> = {
  'created-at': 'f.created_at',
  'last-modified': 'f.last_updated',
  interactions: 'f.total_interactions',
};

export interface Window {
  limit: number;
  offset: number;
  descending: boolean;
}

export function windowOf(request: AgentSearchRequest): Window {
  return {
    limit: request.limit ?? SEARCH_LIMIT_DEFAULT,
    offset: request.offset ?? 0,
    descending: (request.direction ?? 'desc') === 'desc',
  };
}

export function whereClause(conditions: string[]): string {
  return conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
}
