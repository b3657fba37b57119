/**
 * Agents reference their account (agents.account_id REFERENCES accounts), and D1 enforces foreign keys: a
 * shard other than home carries a copy of the account's row (id, name, created_at) for its agents to point
 * at. Keys, quotas and every other per-account fact stay on home, which is the only place they are read.
 * `shard` is another shard than home.
 */
export async function ensureAccountOnShard(home: D1Database, shard: Pick<D1Database, 'prepare'>, accountId: string): Promise<void> {
  const account = await home
    .prepare('SELECT id, name, created_at FROM accounts WHERE id = ?')
    .bind(accountId)
    .first<{ id: string; name: string; created_at: string }>();
  if (!account) throw new Error(`account ${accountId} is not on the home database`);
  await shard
    .prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING')
    .bind(account.id, account.name, account.created_at)
    .run();
}
