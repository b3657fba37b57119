import type { SqlRunner } from './sql-runner.ts';

/**
 * Search sessions: a search_id names one search and its pages. The first request with an id (or without
 * one: a new UUID) opens the session; later pages reuse it. Its start time freezes the click feedback its
 * ranking reads, and its query key attributes clicks to the query.
 */
export interface SearchSession {
  searchId: string;
  queryKey: string;
}

export async function openSession(runner: SqlRunner, searchId: string | undefined, queryKey: string, source: string | undefined): Promise<SearchSession> {
  const id = searchId ?? crypto.randomUUID();
  await runner.all({
    sql: 'INSERT INTO search_sessions (search_id, query_key, source, started_at) VALUES (?1, ?2, ?3, ?4) ON CONFLICT (search_id) DO NOTHING',
    params: [id, queryKey, source ?? null, new Date().toISOString()],
  });
  return { searchId: id, queryKey };
}
