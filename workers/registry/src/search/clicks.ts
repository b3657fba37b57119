import type { SearchClickRequest } from '../../../../schemas/search.ts';
import type { SqlRunner } from './sql-runner.ts';

type ClickOutcome = { kind: 'recorded'; duplicate: boolean } | { kind: 'unknown_search' } | { kind: 'unknown_agent' };

/** Clicks one account's keys may count on one agent per UTC day: new searches do not buy more feedback. */
export const DAILY_CLICKS_PER_AGENT = 5;

/**
 * Records that a user chose `address` among a session's results, under the session's query. One click per
 * (session, agent) counts, and at most DAILY_CLICKS_PER_AGENT per account and agent a day: beyond that a
 * click changes nothing (`duplicate`), so one client cannot inflate an agent's feedback.
 */
export async function recordClick(runner: SqlRunner, click: SearchClickRequest, accountId: string): Promise<ClickOutcome> {
  const now = new Date().toISOString();
  const [sessions, agents, inserted] = (await runner.batch([
    { sql: 'SELECT 1 AS found FROM search_sessions WHERE search_id = ?1', params: [click.search_id] },
    { sql: 'SELECT 1 AS found FROM agents WHERE address = ?1', params: [click.address] },
    {
      sql: `INSERT INTO search_clicks (search_id, address, query_key, page_index, clicked_at, account_id)
            SELECT s.search_id, ?2, s.query_key, ?3, ?4, ?5 FROM search_sessions s
            WHERE s.search_id = ?1 AND EXISTS (SELECT 1 FROM agents WHERE address = ?2)
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
      ],
    },
  ])) as [unknown[], unknown[], unknown[]];
  if (sessions.length === 0) return { kind: 'unknown_search' };
  if (agents.length === 0) return { kind: 'unknown_agent' };
  return { kind: 'recorded', duplicate: inserted.length === 0 };
}
