import type { SearchClickRequest } from '../../../../schemas/search.ts';
import type { SqlRunner } from './sql-runner.ts';

type ClickOutcome = { kind: 'recorded'; duplicate: boolean } | { kind: 'unknown_search' } | { kind: 'unknown_agent' };

/** Clicks one account's keys may count on one agent per UTC day: new searches do not buy more feedback. */
export const DAILY_CLICKS_PER_AGENT = 5;

/**
 * Records that a user chose `address` among a session's results, under the session's query. One click per
 * (session, agent) counts, and at most DAILY_CLICKS_PER_AGENT per account and agent a day: beyond that a
 * click changes nothing (`duplicate`), so one client cannot inflate an agent's feedback. `runner` is the
 * clicked agent's shard; `sessions` the home database when that is another one (shards hold no sessions).
 * An unlisted agent (public: false) is in no search's results, so no click on it is genuine (and clicks stored while
 * it is unlisted would lift it once listed): it is `unknown_agent`, as an unregistered address is.
 */
export async function recordClick(
  runner: SqlRunner,
  click: SearchClickRequest,
  accountId: string,
  sessions: SqlRunner | null = null,
): Promise<ClickOutcome> {
  // The session's row: read here on one database, or from home first and carried in as values (?8).
  let session = 'SELECT search_id, query_key FROM search_sessions WHERE search_id = ?1';
  const carried: unknown[] = [];
  if (sessions) {
    const [found] = await sessions.all<{ query_key: string }>({
      sql: 'SELECT query_key FROM search_sessions WHERE search_id = ?1',
      params: [click.search_id],
    });
    if (!found) return { kind: 'unknown_search' };
    session = 'SELECT ?1 AS search_id, ?8 AS query_key';
    carried.push(found.query_key);
  }
  const now = new Date().toISOString();
  const [agents, inserted, sessionRows] = (await runner.batch([
    { sql: 'SELECT 1 AS found FROM agents WHERE address = ?1 AND is_public = 1', params: [click.address] },
    {
      sql: `INSERT INTO search_clicks (search_id, address, query_key, page_index, clicked_at, account_id)
            SELECT s.search_id, ?2, s.query_key, ?3, ?4, ?5 FROM (${session}) s
            WHERE EXISTS (SELECT 1 FROM agents WHERE address = ?2 AND is_public = 1)
              AND (SELECT count(*) FROM search_clicks WHERE account_id = ?5 AND address = ?2 AND clicked_at >= ?6) < ?7
            ON CONFLICT (search_id, address) DO NOTHING
            RETURNING address`,
      params: [
        click.search_id,
        click.address,
        click.page_index,
        now,
        accountId,
        `${now.slice(0, 10)}T00:00:00.000Z`,
        DAILY_CLICKS_PER_AGENT,
        ...carried,
      ],
    },
    ...(sessions ? [] : [{ sql: session, params: [click.search_id] }]),
  ])) as [unknown[], unknown[], unknown[] | undefined];
  if (sessionRows?.length === 0) return { kind: 'unknown_search' };
  if (agents.length === 0) return { kind: 'unknown_agent' };
  return { kind: 'recorded', duplicate: inserted.length === 0 };
}
