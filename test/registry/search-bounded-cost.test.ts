import { applyD1Migrations, env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { postWithVars, type SearchPage } from './fixtures/search-client.ts';
import { accountWithKey, insertAgents, preferredGizmoHelpers, textOnlyAgent } from './fixtures/search-seed.ts';

/**
 * Which searches are narrowed to preferred agents, by cost (docs/decisions/0200): the postings of the query's
 * words with the terms standing for them (a typo's correction, a typed prefix's completions), together at least
 * SEARCH_COMMON_WORD_DOCS (here 50), none under a fifth of it (10). "gizmo" is in 40 agents, "helper" in 39:
 * each alone ranks every match, together they are narrowed, as typed, misspelt or still being typed. The
 * narrowed ranking reads the preferred agents' own index (0017_search_preferred_index.sql), kept by triggers.
 */
const BOUNDED = { ...env, SEARCH_COMMON_WORD_DOCS: '50' };

const preferred = preferredGizmoHelpers();
/** The best text match for both words, with no evidence of quality: never preferred. */
const bestText = textOnlyAgent(200, 'Gizmo Helper Workshop', 'A gizmo helper: builds, repairs and tunes every kind of gizmo.', {
  tags: ['gizmo', 'helper'],
});
const plain = Array.from({ length: 32 }, (_, i) => textOnlyAgent(300 + i, `Plain Helper ${i}`, 'Another helper with a gizmo in its text.'));
const gizmoOnly = textOnlyAgent(400, 'Gizmo Repairs', 'Fixes a gizmo.');
const others = Array.from({ length: 60 }, (_, i) => textOnlyAgent(500 + i, `Weather Reporter ${i}`, 'Reports the weather of a city.'));
const CORPUS = [...preferred, bestText, ...plain, gizmoOnly, ...others];

let token: string;

async function search(body: Record<string, unknown>, vars: typeof env = BOUNDED): Promise<SearchPage & { total_is_estimate: boolean }> {
  return postWithVars('/v1/search/agents', token, { semantic_search: false, limit: 5, ...body }, vars);
}

const addresses = (page: SearchPage) => page.agents.map((agent) => agent.address);
const preferredAddresses = () => new Set(preferred.map((agent) => agent.address));

beforeAll(async () => {
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
  const owner = await accountWithKey(env.DB, ['read']);
  token = owner.token;
  await insertAgents(env.DB, owner.accountId, CORPUS);
});

describe('a search is narrowed by the postings of all its words', () => {
  it('a word under the bound alone ranks every match', async () => {
    const page = await search({ search_text: 'gizmo' });
    expect(page.agents).toHaveLength(5);
    expect(preferredAddresses().has(addresses(page)[0]!)).toBe(false);
  });

  for (const search_text of ['gizmo helper', 'gizmoo helper', 'helper gizm']) {
    it(`"${search_text}": together over the bound, only preferred agents are ranked`, async () => {
      const page = await search({ search_text });
      expect(page.agents).toHaveLength(5);
      for (const address of addresses(page)) expect(preferredAddresses().has(address)).toBe(true);
    });
  }

  it('with the default bound the same words rank every match', async () => {
    for (const search_text of ['gizmo helper', 'gizmoo helper', 'helper gizm']) {
      expect(addresses(await search({ search_text }, env))[0]).toBe(bestText.address);
    }
  });

  it('a rare word keeps every match ranked', async () => {
    // "repairs" is in 2 agents, under a fifth of the bound: the query is bounded by it, not narrowed.
    const page = await search({ search_text: 'gizmo helper repairs' });
    expect(addresses(page)).toContain(gizmoOnly.address);
  });
});

describe('a narrowed search pages through every match once (docs/decisions/0220)', () => {
  // 6 preferred agents match "gizmo helper", 40 agents in all: the second page of 5 holds the last preferred agent,
  // then the full ranking's first agents that are not preferred; the pages go on in the full ranking's order.
  for (const search_text of ['gizmo helper', 'gizmoo helper']) {
    it(`"${search_text}": the preferred tier, then the rest in the full ranking's order`, async () => {
      const shown: string[] = [];
      for (let offset = 0; ; offset += 5) {
        const page = await search({ search_text, offset });
        shown.push(...addresses(page));
        if (page.agents.length < 5) break;
      }
      expect(new Set(shown).size).toBe(shown.length);
      expect(new Set(shown.slice(0, preferred.length))).toEqual(preferredAddresses());
      const full = addresses(await search({ search_text, limit: 100 }, env));
      expect(shown.slice(preferred.length)).toEqual(full.filter((address) => !preferredAddresses().has(address)));
    });
  }
});

describe('the preferred index follows the agents', () => {
  it('an edited text is searched as edited', async () => {
    const agent = preferred[0]!;
    await env.DB.prepare('UPDATE agents SET description = ?, tags = ? WHERE address = ?')
      .bind('A gizmo helper for every gizmo.', JSON.stringify(['gizmo', 'helper']), agent.address)
      .run();
    expect(addresses(await search({ search_text: 'gizmo helper' }))[0]).toBe(agent.address);
  });

  it('an agent no longer preferred, or deleted, leaves it', async () => {
    await env.DB.prepare('UPDATE agents SET featured = 0, agent_rank = 0 WHERE address = ?').bind(preferred[1]!.address).run();
    await env.DB.prepare('DELETE FROM agents WHERE address = ?').bind(preferred[2]!.address).run();
    const rows = await env.DB.prepare('SELECT rowid FROM search_preferred_fts').all<{ rowid: number }>();
    expect(rows.results).toHaveLength(preferred.length - 2);
    const page = await search({ search_text: 'gizmo helper', limit: 10 });
    expect(addresses(page)).not.toContain(preferred[1]!.address);
    expect(addresses(page)).not.toContain(preferred[2]!.address);
  });
});
