import { applyD1Migrations, env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { postWithVars, type SearchPage } from './fixtures/search-client.ts';
import { accountWithKey, craftAgent, insertAgents } from './fixtures/search-seed.ts';

/**
 * Migration 0016 recomputes the FTS `preferred` token of agents registered before it (docs/decisions/0198): the
 * registry is migrated up to 0015, agents are written, then 0016 and later run. An agent preferred for its
 * interaction count alone loses the token; one with AgentRank gains it.
 */
const BOUNDED = { ...env, SEARCH_COMMON_WORD_DOCS: '5' };
const BEFORE_0016 = env.TEST_MIGRATIONS.filter((migration) => migration.name < '0016');

const busy = craftAgent(1, 'Busy Gizmo Helper', 'A helper with a gizmo.', { featured: true, recent_interactions: 3000 });
const trusted = craftAgent(2, 'Trusted Gizmo Helper', 'A helper with a gizmo.', { featured: true });
const plain = Array.from({ length: 8 }, (_, i) => craftAgent(10 + i, `Plain Helper ${i}`, 'Another helper with a gizmo.'));
const others = Array.from({ length: 12 }, (_, i) => craftAgent(30 + i, `Weather Reporter ${i}`, 'Reports the weather of a city.'));

let token: string;

async function boundedSearch(body: Record<string, unknown>): Promise<string[]> {
  const page = await postWithVars<SearchPage>('/v1/search/agents', token, { semantic_search: false, ...body }, BOUNDED);
  return page.agents.map((agent) => agent.address);
}

beforeAll(async () => {
  await applyD1Migrations(env.DB, BEFORE_0016);
  const owner = await accountWithKey(env.DB, ['read']);
  token = owner.token;
  await insertAgents(env.DB, owner.accountId, [busy, trusted, ...plain, ...others]);
  await env.DB.prepare('UPDATE agents SET agent_rank = 3 WHERE address = ?').bind(trusted.address).run();
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
});

describe('migration 0016', () => {
  it('re-indexes existing agents with the preferred token of the new prior', async () => {
    expect(await boundedSearch({ search_text: 'gizmo', limit: 1 })).toEqual([trusted.address]);
    // A page past the preferred matches is the full ranking's (docs/decisions/0200): the index they are read from
    // shows that the busy agent is not among them.
    const preferred = await env.DB.prepare('SELECT a.address FROM search_preferred_fts p JOIN agents a ON a.rowid = p.rowid').all<{
      address: string;
    }>();
    expect(preferred.results.map((row) => row.address)).toEqual([trusted.address]);
  });
});
