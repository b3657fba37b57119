import type Database from 'better-sqlite3';
import { indexPendingAgents } from '../../workers/registry/src/search/semantic-index.ts';
import { shardOf } from '../../workers/registry/src/shards/shard-key.ts';
import { sqliteRunner } from '../../bench/sqlite-runner.ts';

/**
 * Moves agents to the shard FNV-1a(address) mod N gives them when N changes (docs/decisions/0206): local D1
 * database files (SQLite, as Miniflare persists them or `wrangler d1 export` writes them), shard 0 first, the
 * new shards already migrated. An agent moves with what lives with it (docs/decisions/0162): its row (the
 * schema's triggers rebuild its search rows on the new shard, the semantic index is rewritten as registration
 * writes it), the interactions it is the target of, the clicks on it, its embedding id and its liveness claim.
 *
 * Two phases, each resumable and safe to run again: `copy` writes every moving agent to its new shard, one
 * transaction per batch on the new shard (its dependent rows only when the agent row is new there, so a rerun
 * copies nothing twice); `delete` removes from the old shard every agent its new shard already holds. Reads
 * switch between them: the registry is deployed with the new AGENT_SHARDS after `copy`, then `delete` runs.
 */
export type Phase = 'copy' | 'delete';

/** Rows that live with an agent, by the column that names it. */
const DEPENDENTS = [
  { table: 'interactions', column: 'target' },
  { table: 'search_clicks', column: 'address' },
  { table: 'search_embeddings', column: 'address' },
  { table: 'liveness_claims', column: 'address' },
] as const;

const BATCH = 500;

export interface MoveFigures {
  copied: number;
  deleted: number;
}

/** The agents columns an INSERT may set: generated columns are the schema's to compute. */
function agentColumns(db: Database.Database): string[] {
  return (db.prepare('PRAGMA table_xinfo(agents)').all() as { name: string; hidden: number }[])
    .filter((column) => column.hidden === 0)
    .map((column) => column.name);
}

/** Columns of a table but its integer primary key (interactions' id is each shard's own). */
function copiedColumns(db: Database.Database, table: string): string[] {
  return (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string; pk: number; type: string }[])
    .filter((column) => !(column.pk === 1 && column.type.toUpperCase() === 'INTEGER'))
    .map((column) => column.name);
}

/** The addresses on `shard` that another shard owns under `count` shards, in address order from `after`. */
function movingBatch(db: Database.Database, shard: number, count: number, after: string): { addresses: string[]; last: string | null } {
  const scan = db.prepare('SELECT address FROM agents WHERE address > ? ORDER BY address LIMIT ?');
  let cursor = after;
  for (;;) {
    const rows = scan.all(cursor, BATCH * 4) as { address: string }[];
    if (rows.length === 0) return { addresses: [], last: null };
    cursor = rows.at(-1)!.address;
    const moving = rows.map((row) => row.address).filter((address) => shardOf(address, count) !== shard);
    if (moving.length > 0) return { addresses: moving, last: cursor };
  }
}

function copyBatch(source: Database.Database, shards: readonly Database.Database[], addresses: readonly string[]): number {
  const columns = agentColumns(source);
  const byTarget = new Map<number, string[]>();
  for (const address of addresses) {
    const target = shardOf(address, shards.length);
    byTarget.set(target, [...(byTarget.get(target) ?? []), address]);
  }
  let copied = 0;
  for (const [target, moving] of byTarget) {
    const db = shards[target]!;
    const insertAgent = db.prepare(
      `INSERT INTO agents (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT (address) DO NOTHING`,
    );
    const insertAccount = db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING');
    const readAgent = source.prepare(`SELECT ${columns.join(', ')} FROM agents WHERE address = ?`).raw();
    const readAccount = source.prepare('SELECT id, name, created_at FROM accounts WHERE id = ?').raw();
    db.transaction(() => {
      for (const address of moving) {
        const row = readAgent.get(address) as unknown[] | undefined;
        if (!row) continue;
        const accountId = row[columns.indexOf('account_id')] as string | null;
        // The agent references its account (D1 enforces foreign keys): the shard carries a copy of its row (0190).
        if (accountId !== null) insertAccount.run(...(readAccount.get(accountId) as unknown[]));
        if (insertAgent.run(...row).changes === 0) continue;
        copied += 1;
        for (const { table, column } of DEPENDENTS) {
          const kept = copiedColumns(source, table);
          const rows = source
            .prepare(`SELECT ${kept.join(', ')} FROM ${table} WHERE ${column} = ?`)
            .raw()
            .all(address) as unknown[][];
          const insert = db.prepare(`INSERT OR IGNORE INTO ${table} (${kept.join(', ')}) VALUES (${kept.map(() => '?').join(', ')})`);
          for (const dependent of rows) insert.run(...dependent);
        }
      }
    })();
  }
  return copied;
}

function deleteBatch(source: Database.Database, shards: readonly Database.Database[], addresses: readonly string[]): number {
  let deleted = 0;
  const remove = source.prepare('DELETE FROM agents WHERE address = ?');
  const dependents = DEPENDENTS.map(({ table, column }) => source.prepare(`DELETE FROM ${table} WHERE ${column} = ?`));
  source.transaction(() => {
    for (const address of addresses) {
      const onTarget = shards[shardOf(address, shards.length)]!.prepare('SELECT 1 FROM agents WHERE address = ?').get(address);
      // Never delete what is not on its new shard yet (a `delete` before its `copy` finished).
      if (!onTarget) continue;
      for (const statement of dependents) statement.run(address);
      deleted += remove.run(address).changes;
    }
  })();
  return deleted;
}

/** One phase over every shard: `shards` is the new set (the old shards first, in order, then the new ones). */
export async function moveAgents(
  shards: readonly Database.Database[],
  phase: Phase,
  progress?: (done: number) => void,
): Promise<MoveFigures> {
  const figures: MoveFigures = { copied: 0, deleted: 0 };
  for (const [index, source] of shards.entries()) {
    for (let after = ''; ; ) {
      const { addresses, last } = movingBatch(source, index, shards.length, after);
      if (last === null) break;
      after = last;
      if (phase === 'copy') figures.copied += copyBatch(source, shards, addresses);
      else figures.deleted += deleteBatch(source, shards, addresses);
      progress?.(figures.copied + figures.deleted);
    }
  }
  // Copied agents are pending in the new shards' semantic index, as a registration's agent is until indexed.
  if (phase === 'copy') for (const db of shards) while ((await indexPendingAgents(sqliteRunner(db), { limit: 2_000 })) > 0);
  return figures;
}

export interface ShardCounts {
  /** Agents and dependent rows over all shards. */
  totals: Record<string, number>;
  /** Agents on a shard that is not theirs under the set's count. */
  misplaced: number;
  /** Agents on more than one shard. */
  duplicated: number;
}

/** What `verify` compares: before and after a move the totals are equal; after both phases nothing is misplaced. */
export function countShards(shards: readonly Database.Database[]): ShardCounts {
  const totals: Record<string, number> = {};
  const seen = new Set<string>();
  let misplaced = 0;
  let duplicated = 0;
  for (const [index, db] of shards.entries()) {
    for (const table of ['agents', ...DEPENDENTS.map((dependent) => dependent.table)]) {
      totals[table] = (totals[table] ?? 0) + (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    }
    for (const { address } of db.prepare('SELECT address FROM agents').iterate() as Iterable<{ address: string }>) {
      if (shardOf(address, shards.length) !== index) misplaced += 1;
      if (seen.has(address)) duplicated += 1;
      seen.add(address);
    }
  }
  totals.agents = seen.size;
  return { totals, misplaced, duplicated };
}
