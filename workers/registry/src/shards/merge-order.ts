import type { AgentSearchRequest } from '../../../../schemas/search.ts';
import type { AgentHit } from '../search/agent-search-types.ts';

/**
 * The order a search's pages are in, as a comparator over page rows, so pages from several shards merge
 * into the page one database would give: the same keys and directions as the SQL (search/agent-order.ts for
 * browsing, search/agent-text-sql.ts for text: a narrowed search's tier first), ties broken by address. Browsing by relevancy sorts by
 * featured, then recent interactions; text by relevancy sorts by score with ties by address ascending.
 */
type Key = (hit: AgentHit) => number | string;

const SORT_KEYS: Record<Exclude<NonNullable<AgentSearchRequest['sort']>, 'relevancy'>, Key> = {
  'created-at': (hit) => hit.created_at,
  'last-modified': (hit) => hit.last_updated,
  interactions: (hit) => hit.total_interactions,
};

const compare = (a: number | string, b: number | string) => (a < b ? -1 : a > b ? 1 : 0);

export function searchOrder(request: AgentSearchRequest): (a: AgentHit, b: AgentHit) => number {
  const sign = (request.direction ?? 'desc') === 'desc' ? -1 : 1;
  const sort = request.sort ?? 'relevancy';
  const text = Boolean(request.search_text?.trim());
  let keys: Key[];
  let tieSign = sign;
  if (sort !== 'relevancy') keys = [SORT_KEYS[sort]];
  else if (text) {
    keys = [(hit) => hit.score];
    tieSign = -sign;
  } else keys = [(hit) => hit.featured, (hit) => hit.recent_interactions];
  return (a, b) => {
    // A narrowed search's preferred tier precedes every other match, whatever the direction (agent-text-sql.ts).
    const tier = (b.tier ?? 0) - (a.tier ?? 0);
    if (tier !== 0) return tier;
    for (const key of keys) {
      const order = compare(key(a), key(b));
      if (order !== 0) return sign * order;
    }
    return tieSign * compare(a.address, b.address);
  };
}
