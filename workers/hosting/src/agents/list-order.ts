import type { HostedSortKey } from '../../../../schemas/hosting.ts';
import type { ListOptions } from './store.ts';

/** Each sort key the query schema takes, to the column it sorts by. */
const COLUMNS: Record<HostedSortKey, ListOptions['sortBy']> = {
  name: 'name',
  created: 'creation_timestamp',
  modified: 'code_update_timestamp',
  creation_timestamp: 'creation_timestamp',
  code_update_timestamp: 'code_update_timestamp',
};

/**
 * The order of GET /v1/hosting/agents, as Agentverse reads `sort_by` (a leading `-` sorts descending) and
 * `direction` (ascending unless said). Without `sort_by`, newest first.
 */
export function listOrder(sortBy: string | undefined, direction: 'asc' | 'desc' | undefined): Pick<ListOptions, 'sortBy' | 'direction'> {
  if (sortBy === undefined) return { sortBy: 'creation_timestamp', direction: direction ?? 'desc' };
  const descending = sortBy.startsWith('-');
  const column = COLUMNS[(descending ? sortBy.slice(1) : sortBy) as HostedSortKey];
  // The query schema lets through only the keys above.
  if (!column) throw new TypeError(`unknown sort key ${sortBy}`);
  return { sortBy: column, direction: descending ? 'desc' : (direction ?? 'asc') };
}
