import type { SearchClickRequest } from '../../../../schemas/search.ts';
import type { SqlRunner } from './sql-runner.ts';

type ClickOutcome = { kind: 'recorded'; duplicate: boolean } | { kind: 'unknown_search' } | { kind: 'unknown_agent' };

/**
 * Records that a user chose `address` among a session's results, under the session's query. One click per
 * (session, agent) counts: repeating it changes nothing, so one client cannot inflate an agent's feedback.
 */
export async function recordClick(runner: SqlRunner, click: SearchClickRequest): Promise<ClickOutcome> {
  const [sessions, agents, inserted] = (await runner.batch([
    { sql: 'SELECT 1 AS found FROM search_sessions WHERE search_id = ?1', params: [click.search_id] },
    { sql: 'SELECT 1 AS found FROM agents WHERE address = ?1', params: [click.address] },
    {
      sql: `INSERT INTO search_clicks (search_id, address, query_key, page_index, clicked_at)
            SELECT s.search_id, ?2, s.query_key, ?3, ?4 FROM search_sessions s
            WHERE s.search_id = ?1 AND EXISTS (SELECT 1 FROM agents WHERE address = ?2)
            ON CONFLICT (search_id, address) DO NOTHING
            RETURNING address`,
      params: [click.search_id, click.address, click.page_index, new Date().toISOString()],
    },
  ])) as [unknown[], unknown[], unknown[]];
  if (sessions.length === 0) return { kind: 'unknown_search' };
  if (agents.length === 0) return { kind: 'unknown_agent' };
  return { kind: 'recorded', duplicate: inserted.length === 0 };
}
