import type { NewHostedAgent, UpdateHostedAgent } from '../../../../schemas/hosting.ts';
import type { AgentRow } from './records.ts';

/** Hosted agents in D1. Every read by an account names it: another account's agent is simply not found. */

/**
 * Inserts the agent unless its account holds `maxPerAccount` agents already; false when refused. One
 * statement, so that concurrent creations cannot pass the quota together.
 */
export async function insertAgent(db: D1Database, row: AgentRow, maxPerAccount: number): Promise<boolean> {
  const result = await db
    .prepare(
      `INSERT INTO hosted_agents (address, account_id, name, readme, short_description, avatar_url, network, sealed_seed, code, code_digest,
        code_update_timestamp, revision, compiled, running, creation_timestamp)
        SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15
        WHERE (SELECT COUNT(*) FROM hosted_agents WHERE account_id = ?2) < ?16`,
    )
    .bind(
      row.address,
      row.account_id,
      row.name,
      row.readme,
      row.short_description,
      row.avatar_url,
      row.network,
      row.sealed_seed,
      row.code,
      row.code_digest,
      row.code_update_timestamp,
      row.revision,
      row.compiled,
      row.running,
      row.creation_timestamp,
      maxPerAccount,
    )
    .run();
  return result.meta.changes > 0;
}

export function newAgentRow(accountId: string, address: string, sealedSeed: string, input: NewHostedAgent, now: Date): AgentRow {
  return {
    address,
    account_id: accountId,
    name: input.name,
    readme: input.readme ?? null,
    short_description: input.short_description ?? null,
    avatar_url: input.avatar_url ?? null,
    network: input.network ?? 'testnet',
    sealed_seed: sealedSeed,
    code: null,
    code_digest: null,
    code_update_timestamp: null,
    revision: 0,
    compiled: null,
    running: 0,
    creation_timestamp: now.toISOString(),
  };
}

/** The agent at `address` if it belongs to `accountId`. */
export async function findOwnAgent(db: D1Database, accountId: string, address: string): Promise<AgentRow | null> {
  return db.prepare('SELECT * FROM hosted_agents WHERE address = ?1 AND account_id = ?2').bind(address, accountId).first<AgentRow>();
}

/** The agent at `address`, whoever owns it (message delivery, the agent's own calls). */
export async function findAgent(db: D1Database, address: string): Promise<AgentRow | null> {
  return db.prepare('SELECT * FROM hosted_agents WHERE address = ?1').bind(address).first<AgentRow>();
}

export interface ListOptions {
  offset: number;
  limit: number;
  name?: string;
  sortBy: 'name' | 'creation_timestamp' | 'code_update_timestamp';
  direction: 'asc' | 'desc';
}

export async function listAgents(db: D1Database, accountId: string, options: ListOptions): Promise<AgentRow[]> {
  // sortBy and direction come from closed sets (list-order.ts), never from the caller's text.
  const order = `${options.sortBy} ${options.direction}, address`;
  const { results } = await db
    .prepare(
      `SELECT * FROM hosted_agents WHERE account_id = ?1 AND (?2 IS NULL OR instr(lower(name), lower(?2)) > 0) ORDER BY ${order} LIMIT ?3 OFFSET ?4`,
    )
    .bind(accountId, options.name ?? null, options.limit + 1, options.offset)
    .all<AgentRow>();
  return results;
}

export async function updateAgent(db: D1Database, address: string, changes: UpdateHostedAgent): Promise<void> {
  await db
    .prepare(
      `UPDATE hosted_agents SET name = COALESCE(?2, name),
        readme = CASE WHEN ?3 THEN ?4 ELSE readme END,
        avatar_url = CASE WHEN ?5 THEN ?6 ELSE avatar_url END,
        short_description = CASE WHEN ?7 THEN ?8 ELSE short_description END,
        revision = revision + 1 WHERE address = ?1`,
    )
    .bind(
      address,
      changes.name ?? null,
      changes.readme !== undefined ? 1 : 0,
      changes.readme ?? null,
      changes.avatar_url !== undefined ? 1 : 0,
      changes.avatar_url ?? null,
      changes.short_description !== undefined ? 1 : 0,
      changes.short_description ?? null,
    )
    .run();
}

/** New code: the revision counts it, and `compiled` is unknown again until a load is tried. */
export async function setCode(db: D1Database, address: string, code: string, digest: string, now: Date): Promise<void> {
  await db
    .prepare(
      'UPDATE hosted_agents SET code = ?2, code_digest = ?3, code_update_timestamp = ?4, compiled = NULL, revision = revision + 1 WHERE address = ?1',
    )
    .bind(address, code, digest, now.toISOString())
    .run();
}

export async function setState(db: D1Database, address: string, state: { compiled?: boolean; running?: boolean }): Promise<void> {
  await db
    .prepare(
      'UPDATE hosted_agents SET compiled = CASE WHEN ?2 THEN ?3 ELSE compiled END, running = CASE WHEN ?4 THEN ?5 ELSE running END WHERE address = ?1',
    )
    .bind(address, state.compiled !== undefined ? 1 : 0, state.compiled ? 1 : 0, state.running !== undefined ? 1 : 0, state.running ? 1 : 0)
    .run();
}

export async function deleteAgentRow(db: D1Database, address: string): Promise<void> {
  await db.batch([
    db.prepare('DELETE FROM hosted_secrets WHERE address = ?1').bind(address),
    db.prepare('DELETE FROM hosted_agents WHERE address = ?1').bind(address),
  ]);
}
