import Database from 'better-sqlite3';
import path from 'node:path';
import { readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { countShards, moveAgents } from '../../scripts/reshard/move-agents.ts';
import { generateAgents } from '../registry/fixtures/corpus/generate.ts';
import { AGENT_COLUMNS, registrationColumns } from '../registry/fixtures/corpus/registration-columns.ts';
import { shardOf } from '../../workers/registry/src/shards/shard-key.ts';
import { indexAllPendingAgents } from '../../workers/registry/src/search/semantic-index.ts';
import { sqliteRunner } from '../../bench/sqlite-runner.ts';

/**
 * scripts/reshard.ts on five local D1 databases (SQLite, the registry's migrations): 300 agents on four shards
 * by FNV-1a(address) mod 4, with interactions, clicks, embeddings and liveness claims, moved to mod 5.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const AGENTS = [...generateAgents(300, 606)];
let shards: Database.Database[];

/** Per shard: its agents, and its FTS, vector and function rows (the triggers' and the semantic index's). */
const derived = (db: Database.Database) =>
  Object.fromEntries(
    ['search_agents_fts', 'search_agent_vectors', 'search_functions', 'search_agent_facts'].map((table) => [
      table,
      (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n,
    ]),
  );
const sum = (rows: Record<string, number>[]) =>
  rows.reduce<Record<string, number>>((total, row) => {
    for (const [key, n] of Object.entries(row)) total[key] = (total[key] ?? 0) + n;
    return total;
  }, {});

beforeEach(async () => {
  const migrations = await readD1Migrations(path.join(ROOT, 'workers/registry/migrations'));
  shards = Array.from({ length: 5 }, () => {
    const db = new Database(':memory:');
    for (const migration of migrations) for (const query of migration.queries) db.prepare(query).run();
    db.prepare("INSERT INTO accounts (id, name, created_at) VALUES ('owner', 'owner', '2026-01-01')").run();
    return db;
  });
  const insert = `INSERT INTO agents (${AGENT_COLUMNS.join(', ')}) VALUES (${AGENT_COLUMNS.map(() => '?').join(', ')})`;
  for (const [i, agent] of AGENTS.entries()) {
    const db = shards[shardOf(agent.address, 4)]!;
    db.prepare(insert).run(...registrationColumns('owner', agent));
    db.prepare("INSERT INTO interactions (target, source, kind, at) VALUES (?, ?, 'proxy', '2026-11-20')").run(
      agent.address,
      `source-${i}`,
    );
    db.prepare(
      "INSERT INTO search_clicks (search_id, address, query_key, page_index, clicked_at) VALUES (?, ?, 'weather', 0, '2026-11-20')",
    ).run(`search-${i}`, agent.address);
    if (i % 3 === 0) db.prepare("INSERT INTO liveness_claims (address, claimed_at) VALUES (?, '2026-11-20')").run(agent.address);
    if (i % 4 === 0) db.prepare('INSERT INTO search_embeddings (address, vector_id) VALUES (?, ?)').run(agent.address, `v-${i}`);
  }
  for (const db of shards) await indexAllPendingAgents(sqliteRunner(db));
});

describe('resharding from four shards to five', () => {
  it('moves each agent with its rows to its new shard; totals and search rows are the same before and after', async () => {
    const before = countShards(shards.slice(0, 4));
    const searchRows = sum(shards.map(derived));
    const moving = AGENTS.filter((agent) => shardOf(agent.address, 5) !== shardOf(agent.address, 4));
    expect(moving.length).toBeGreaterThan(100);

    const copied = await moveAgents(shards, 'copy');
    expect(copied).toEqual({ copied: moving.length, deleted: 0 });
    // Between the phases every moving agent is on both shards: the old count's reads and the new one's find it.
    expect(countShards(shards).duplicated).toBe(moving.length);

    expect(await moveAgents(shards, 'delete')).toEqual({ copied: 0, deleted: moving.length });
    const after = countShards(shards);
    expect(after).toEqual({ totals: before.totals, misplaced: 0, duplicated: 0 });
    expect(sum(shards.map(derived))).toEqual(searchRows);
    for (const agent of moving) {
      const owner = shards[shardOf(agent.address, 5)]!;
      const row = owner.prepare('SELECT name, account_id FROM agents WHERE address = ?').get(agent.address);
      expect(row).toEqual({ name: agent.name, account_id: 'owner' });
      expect(owner.prepare('SELECT count(*) AS n FROM interactions WHERE target = ?').get(agent.address)).toEqual({ n: 1 });
      expect(owner.prepare('SELECT count(*) AS n FROM search_clicks WHERE address = ?').get(agent.address)).toEqual({ n: 1 });
    }
  });

  it('resumes: a copy interrupted after its first batch, run again, copies each agent once; delete waits for the copy', async () => {
    const moving = AGENTS.filter((agent) => shardOf(agent.address, 5) !== shardOf(agent.address, 4)).length;
    await expect(
      moveAgents(shards, 'copy', () => {
        throw new Error('interrupted');
      }),
    ).rejects.toThrow('interrupted');
    const partial = countShards(shards).duplicated;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(moving);
    // A delete now removes only what its new shard already holds.
    expect((await moveAgents(shards, 'delete')).deleted).toBe(partial);
    expect(countShards(shards).totals.agents).toBe(AGENTS.length);
    expect((await moveAgents(shards, 'copy')).copied).toBe(moving - partial);
    expect((await moveAgents(shards, 'copy')).copied).toBe(0);
    await moveAgents(shards, 'delete');
    const after = countShards(shards);
    expect(after.misplaced + after.duplicated).toBe(0);
    expect(after.totals).toMatchObject({ agents: AGENTS.length, interactions: AGENTS.length, search_clicks: AGENTS.length });
  });
});
