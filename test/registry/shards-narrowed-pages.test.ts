import { applyD1Migrations, env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { shardOf } from '../../workers/registry/src/shards/shard-key.ts';
import { fourShardBindings, SHARDS } from './fixtures/four-shards.ts';
import { postWithVars, type SearchPage } from './fixtures/search-client.ts';
import { accountWithKey, insertAgents, preferredGizmoHelpers, textOnlyAgent } from './fixtures/search-seed.ts';

/**
 * A narrowed search over four shards pages as over one database (docs/decisions/0220): every shard answers its
 * own sequence (its preferred tier when the tier fills a page of the client's size, then every other match), and
 * the fan-out merges them tier first, so paging through the registry shows each match once. The bound is set
 * so "gizmo" (in 58 of 118 agents) is narrowed; 24 preferred agents give every shard a tier of a few.
 */
const SHARDED = fourShardBindings();
const BOUNDED = { ...SHARDED, SEARCH_COMMON_WORD_DOCS: '10' };

const preferred = preferredGizmoHelpers(24);
const plain = Array.from({ length: 34 }, (_, i) => textOnlyAgent(300 + i, `Plain Helper ${i}`, 'Another helper with a gizmo in its text.'));
const others = Array.from({ length: 60 }, (_, i) => textOnlyAgent(400 + i, `Weather Reporter ${i}`, 'Reports the weather of a city.'));
const CORPUS = [...preferred, ...plain, ...others];

let token: string;
const search = (body: Record<string, unknown>, vars: typeof env) =>
  postWithVars<SearchPage & { total_is_estimate: boolean }>('/v1/search/agents', token, { semantic_search: false, ...body }, vars);
const addresses = (page: SearchPage) => page.agents.map((agent) => agent.address);

beforeAll(async () => {
  for (const db of SHARDS) await applyD1Migrations(db, env.TEST_MIGRATIONS);
  const owner = await accountWithKey(SHARDS[0]!, ['read']);
  token = owner.token;
  const account = await SHARDS[0]!.prepare('SELECT id, name, created_at FROM accounts WHERE id = ?').bind(owner.accountId).first();
  for (const db of SHARDS.slice(1))
    await db
      .prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)')
      .bind(account!.id, account!.name, account!.created_at)
      .run();
  for (const [i, db] of SHARDS.entries())
    await insertAgents(
      db,
      owner.accountId,
      CORPUS.filter((agent) => shardOf(agent.address, SHARDS.length) === i),
    );
}, 60_000);

describe('a narrowed search over four shards', () => {
  it('pages through every match once, the preferred first', async () => {
    const shown: string[] = [];
    const totals = new Set<string>();
    for (let offset = 0; ; offset += 3) {
      const page = await search({ search_text: 'gizmo', limit: 3, offset }, BOUNDED);
      shown.push(...addresses(page));
      totals.add(`${page.total} ${page.total_is_estimate}`);
      if (page.agents.length < 3) break;
    }
    expect(new Set(shown).size).toBe(shown.length);
    const every = addresses(await search({ search_text: 'gizmo', limit: 100 }, SHARDED));
    expect(new Set(shown)).toEqual(new Set(every));
    const preferredAddresses = new Set(preferred.map((agent) => agent.address));
    for (const address of shown.slice(0, 3)) expect(preferredAddresses.has(address)).toBe(true);
    expect(totals.size).toBe(1);
  });
});
