import { applyD1Migrations, env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { postWithVars, type SearchPage } from './fixtures/search-client.ts';
import { accountWithKey, insertAgents, preferredGizmoHelpers, textOnlyAgent } from './fixtures/search-seed.ts';

/**
 * Search's bounds at scale (docs/decisions/0166), on a corpus small enough for a test: the Worker's vars set
 * the common-word threshold to 10 agents and exact totals to 20, so "gizmo" (in 40 of 100 agents) is a common
 * word whose ranking is narrowed to preferred agents (high quality prior), and totals past 20 are estimates.
 * The same searches with the default bounds (wrangler.toml) rank every match and count exactly.
 */
const BOUNDED = { ...env, SEARCH_COMMON_WORD_DOCS: '10', SEARCH_EXACT_TOTAL_MAX: '20' };

const preferred = preferredGizmoHelpers();
const setAgentRank = (address: string, rank: number) =>
  env.DB.prepare('UPDATE agents SET agent_rank = ? WHERE address = ?').bind(rank, address).run();
/** The best text match for "gizmo" (in its name, tags and description, not stuffed), with no evidence of quality yet. */
const bestText = textOnlyAgent(200, 'Gizmo Workshop', 'Builds, repairs and tunes every kind of gizmo.', { tags: ['gizmo'] });
const plain = Array.from({ length: 33 }, (_, i) => textOnlyAgent(300 + i, `Plain Helper ${i}`, 'Another helper with a gizmo in its text.'));
const GIZMO = [...preferred, bestText, ...plain];
/** Agents without the word: in fewer than half the agents, "gizmo" keeps a positive bm25 weight. */
const others = Array.from({ length: 60 }, (_, i) => textOnlyAgent(400 + i, `Weather Reporter ${i}`, 'Reports the weather of a city.'));
const CORPUS = [...GIZMO, ...others];

let token: string;

async function search(body: Record<string, unknown>, vars: typeof env = env): Promise<SearchPage & { total_is_estimate: boolean }> {
  return postWithVars('/v1/search/agents', token, { semantic_search: false, ...body }, vars);
}

const addresses = (page: SearchPage) => page.agents.map((agent) => agent.address);
const listedCount = async () =>
  (await env.DB.prepare('SELECT count(*) AS n FROM agents WHERE is_active = 1 AND is_public = 1').first<{ n: number }>())!.n;

beforeAll(async () => {
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
  const owner = await accountWithKey(env.DB, ['read']);
  token = owner.token;
  await insertAgents(env.DB, owner.accountId, CORPUS);
});

describe('a query of common words ranks its preferred matches', () => {
  it('with the default bounds, every match is ranked and counted exactly', async () => {
    const page = await search({ search_text: 'gizmo', limit: 5 });
    expect(addresses(page)[0]).toBe(bestText.address);
    expect(page.total).toBe(GIZMO.length);
    expect(page.total_is_estimate).toBe(false);
  });

  it('past the common-word threshold, only preferred agents are ranked, and the total is a lower bound', async () => {
    const page = await search({ search_text: 'gizmo', limit: 5 }, BOUNDED);
    expect(page.agents).toHaveLength(5);
    const preferredAddresses = new Set(preferred.map((agent) => agent.address));
    for (const address of addresses(page)) expect(preferredAddresses.has(address)).toBe(true);
    expect(page.total).toBe(20);
    expect(page.total_is_estimate).toBe(true);
  });

  it('ranks every match when too few preferred agents fill the first page', async () => {
    const page = await search({ search_text: 'gizmo', limit: 10 }, BOUNDED);
    expect(page.agents).toHaveLength(10);
    expect(addresses(page)[0]).toBe(bestText.address);
  });
  it('a rarer word is not narrowed', async () => {
    const page = await search({ search_text: 'gizmo widget', limit: 5 }, BOUNDED);
    expect(addresses(page)[0]).toBe(bestText.address);
  });

  it('follows an agent that becomes preferred', async () => {
    await env.DB.prepare('UPDATE agents SET featured = 1 WHERE address = ?').bind(bestText.address).run();
    await setAgentRank(bestText.address, 3);
    try {
      const page = await search({ search_text: 'gizmo', limit: 5 }, BOUNDED);
      expect(addresses(page)[0]).toBe(bestText.address);
    } finally {
      await env.DB.prepare('UPDATE agents SET featured = 0 WHERE address = ?').bind(bestText.address).run();
      await setAgentRank(bestText.address, 0);
    }
    const after = await search({ search_text: 'gizmo', limit: 5 }, BOUNDED);
    expect(addresses(after)).not.toContain(bestText.address);
  });
});

/** Every page of a search, `limit` agents a page, until the first short one. */
async function pageThrough(body: Record<string, unknown>, limit: number, vars: typeof env) {
  const pages: (SearchPage & { total_is_estimate: boolean })[] = [];
  for (let offset = 0; ; offset += limit) {
    const page = await search({ ...body, limit, offset }, vars);
    pages.push(page);
    if (page.agents.length < limit) return pages;
  }
}

describe('the pages of a narrowed search are one sequence (docs/decisions/0220)', () => {
  const preferredAddresses = new Set(preferred.map((agent) => agent.address));

  for (const semantic_search of [false, true]) {
    it(`${semantic_search ? 'hybrid' : 'lexical'}: the preferred tier, then every other match in the full ranking's order, each once`, async () => {
      const body = { search_text: 'gizmo', semantic_search };
      const pages = await pageThrough(body, 5, BOUNDED);
      const shown = pages.flatMap(addresses);
      expect(new Set(shown).size).toBe(shown.length);
      // Page 1 is the tier's, as before: the six preferred matches lead.
      expect(new Set(shown.slice(0, preferred.length))).toEqual(preferredAddresses);
      const full = addresses(await search({ ...body, limit: 100 }, env));
      expect(shown.slice(preferred.length)).toEqual(full.filter((address) => !preferredAddresses.has(address)));
      // Totals are as they were: every page of the lexical search says what the first says.
      if (!semantic_search) for (const page of pages) expect([page.total, page.total_is_estimate]).toEqual([20, true]);
    });
  }

  it('a tier that does not fill a page is not used on any page: every page is the full ranking', async () => {
    const pages = await pageThrough({ search_text: 'gizmo' }, 10, BOUNDED);
    const full = await pageThrough({ search_text: 'gizmo' }, 10, env);
    expect(pages.map(addresses)).toEqual(full.map(addresses));
  });
});

describe('totals', () => {
  it('the unfiltered listing is counted exactly from its counter, whatever the bound', async () => {
    const page = await search({}, BOUNDED);
    expect(page.total).toBe(await listedCount());
    expect(page.total_is_estimate).toBe(false);
  });

  it('a filtered listing past the bound is an estimate, below it exact', async () => {
    const filters = { state: ['active', 'inactive'] };
    const over = await search({ filters, sort: 'interactions' }, BOUNDED);
    expect(over).toMatchObject({ total: 20, total_is_estimate: true });
    const exact = await search({ filters, sort: 'interactions' });
    const publicAgents = (await env.DB.prepare('SELECT count(*) AS n FROM agents WHERE is_public = 1').first<{ n: number }>())!.n;
    expect(exact).toMatchObject({ total: publicAgents, total_is_estimate: false });
  });

  it('the counter follows agents listed, unlisted and deleted', async () => {
    const before = (await search({})).total;
    await env.DB.prepare('UPDATE agents SET is_active = 0 WHERE address = ?').bind(plain[0]!.address).run();
    await env.DB.prepare('UPDATE agents SET is_public = 0 WHERE address = ?').bind(plain[1]!.address).run();
    await env.DB.prepare('DELETE FROM agents WHERE address = ?').bind(plain[2]!.address).run();
    expect((await search({})).total).toBe(before - 3);
    await env.DB.prepare('UPDATE agents SET is_active = 1 WHERE address = ?').bind(plain[0]!.address).run();
    const page = await search({});
    expect(page.total).toBe(before - 2);
    expect(page.total).toBe(await listedCount());
  });
});
