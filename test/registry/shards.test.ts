import { applyD1Migrations, env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentSearchRequest } from '../../schemas/search.ts';
import { toAgentRecord, toAlmanacRecord } from '../../workers/registry/src/agents/record.ts';
import { findAgent } from '../../workers/registry/src/agents/store.ts';
import { searchAgents } from '../../workers/registry/src/search/agent-search.ts';
import { d1Runner } from '../../workers/registry/src/search/sql-runner.ts';
import { fanOutSearch } from '../../workers/registry/src/shards/fan-out-search.ts';
import { shardOf } from '../../workers/registry/src/shards/shard-key.ts';
import { shardSet } from '../../workers/registry/src/shards/shard-set.ts';
import { generateAgents } from './fixtures/corpus/generate.ts';
import { SHARDS } from './fixtures/four-shards.ts';
import { insertAgents } from './fixtures/search-seed.ts';

/**
 * The sharding seam on workerd's own D1: one corpus in the single database, and the same corpus split by
 * address over four local shards. The fan-out's pages and totals equal the single database's.
 */
const CORPUS = [...generateAgents(800, 29)];
const ACCOUNT = 'sharded-owner';

beforeAll(async () => {
  const now = new Date().toISOString();
  for (const [i, db] of [env.DB, ...SHARDS].entries()) {
    await applyD1Migrations(db, env.TEST_MIGRATIONS);
    await db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)').bind(ACCOUNT, `owner ${i}`, now).run();
  }
  await insertAgents(env.DB, ACCOUNT, CORPUS);
  const shards = SHARDS;
  for (const [i, db] of shards.entries())
    await insertAgents(
      db,
      ACCOUNT,
      CORPUS.filter((agent) => shardOf(agent.address, shards.length) === i),
    );
}, 120_000);

const input = (request: AgentSearchRequest) => ({
  request,
  searchId: crypto.randomUUID(),
  queryKey: '',
  startedAt: new Date().toISOString(),
});

async function both(request: AgentSearchRequest) {
  const single = await searchAgents(d1Runner(env.DB), null, input(request));
  const sharded = await fanOutSearch(shardSet(SHARDS).readers(), input(request));
  return { single, sharded, addresses: (result: typeof single) => result.rows.map((row) => row.address) };
}

describe('agents sharded by address over four D1 databases', () => {
  it('spreads the corpus over every shard', async () => {
    const counts = await Promise.all(
      SHARDS.map(async (db) => (await db.prepare('SELECT count(*) AS n FROM agents').first<{ n: number }>())!.n),
    );
    expect(counts.reduce((a, b) => a + b, 0)).toBe(CORPUS.length);
    for (const count of counts) expect(count).toBeGreaterThan(CORPUS.length / 8);
  });

  const exact: AgentSearchRequest[] = [
    {},
    { sort: 'interactions' },
    { sort: 'interactions', direction: 'asc', offset: 45, limit: 20 },
    { sort: 'last-modified' },
    { sort: 'created-at', offset: 300 },
    { filters: { category: ['fetch-ai'] }, sort: 'interactions' },
    { filters: { agent_type: ['hosted', 'uagent'], state: ['active', 'inactive'] }, sort: 'last-modified', limit: 50 },
    { filters: { has_location: true }, offset: 10 },
    { search_text: 'weather', sort: 'interactions' },
    { search_text: 'hotel booking', sort: 'created-at', direction: 'asc', offset: 5 },
  ];
  for (const request of exact)
    it(`pages and totals equal one database's: ${JSON.stringify(request)}`, async () => {
      const { single, sharded, addresses } = await both(request);
      expect(single.rows.length).toBeGreaterThan(0);
      expect(sharded.total).toBe(single.total);
      expect(addresses(sharded)).toEqual(addresses(single));
      expect(sharded.rows.map(toAgentRecord)).toEqual(single.rows.map(toAgentRecord));
    });

  it('text ranked by relevancy: the same matches and total; the order is each shard’s bm25', async () => {
    for (const search_text of ['weather', 'translate documents', 'crypto wallet', 'recipe']) {
      const all = { search_text, limit: 100 };
      const { single, sharded, addresses } = await both(all);
      expect(sharded.total).toBe(single.total);
      expect(new Set(addresses(sharded))).toEqual(new Set(addresses(single)));
    }
  });

  it('almanac lookups and detail go to the owning shard alone, with the same record', async () => {
    const set = shardSet(SHARDS);
    for (const agent of CORPUS.slice(0, 40)) {
      const owner = set.ownerIndex(agent.address);
      const row = await findAgent(set.ownerReader(agent.address), agent.address);
      expect(row && toAlmanacRecord(row)).toEqual(toAlmanacRecord((await findAgent(env.DB, agent.address))!));
      for (const other of SHARDS.filter((_, i) => i !== owner)) expect(await findAgent(other, agent.address)).toBeNull();
    }
  });
});
