import type { SqlRunner } from './sql-runner.ts';

/**
 * Search sessions: a search_id names one search and its pages. The first request with an id (or without
 * one: a new UUID) opens the session; later pages reuse it. Its start time freezes the click feedback its
 * ranking reads, and its query key attributes clicks to the query.
 */
interface SearchSession {
  searchId: string;
  queryKey: string;
  /** When this request started; the session's start if it is the first request of the session. */
  startedAt: string;
  source: string | undefined;
}

export function newSession(searchId: string | undefined, queryKey: string, source: string | undefined): SearchSession {
  return { searchId: searchId ?? crypto.randomUUID(), queryKey, startedAt: new Date().toISOString(), source };
}

/**
 * Stores the session unless it exists (the first request's start time wins). Called after the response
 * (waitUntil), so a search costs no write on its critical path; ranking reads the stored start, falling
 * back to the request's own start for a session not stored yet.
 */
export async function storeSession(runner: SqlRunner, session: SearchSession): Promise<void> {
  await runner.all({
    sql: 'INSERT INTO search_sessions (search_id, query_key, source, started_at) VALUES (?1, ?2, ?3, ?4) ON CONFLICT (search_id) DO NOTHING',
    params: [session.searchId, session.queryKey, session.source ?? null, session.startedAt],
  });
}
