import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Identity } from '../../lib/identity/index.ts';
import type { AgentDetail } from '../../schemas/registry.ts';
import { interact, runCron } from './fixtures/agent-rank-cron.ts';
import { postWithVars, type SearchPage } from './fixtures/search-client.ts';
import { accountWithKey, craftAgent, insertAgents } from './fixtures/search-seed.ts';
import { ADMIN_TOKEN, api, freshIdentity, json, migrate, newKey, registered } from './helpers.ts';

/**
 * The quality prior that decides which agents a query of only common words ranks (the FTS token `preferred`,
 * docs/decisions/0166) reads AgentRank, not raw interaction counts (docs/decisions/0198). Under 0013's prior a
 * featured agent with ~135 recent interactions was preferred: one owner's ring of 15 agents, each sending its
 * daily cap of 10, gave a keyword-stuffed featured agent that, and it alone answered "gizmo". With the common-word
 * threshold at 10 agents, "gizmo" (in 27 of 67 agents) is such a query.
 */
const BOUNDED = { ...env, SEARCH_COMMON_WORD_DOCS: '10' };

let reader: string;

async function boundedSearch(body: Record<string, unknown>): Promise<string[]> {
  return (await postWithVars<SearchPage>('/v1/search/agents', reader, body, BOUNDED)).agents.map((agent) => agent.address);
}

async function agent(token: string, name: string, readme: string): Promise<Identity> {
  const identity = freshIdentity();
  const response = await registered(identity, token, { name, profile: { description: '', readme, avatar_url: '', starter_prompts: [] } });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return identity;
}

let stuffed: Identity;
let honest: Identity;

beforeAll(async () => {
  await migrate();
  const filler = await accountWithKey(env.DB, ['read']);
  reader = filler.token;
  await insertAgents(env.DB, filler.accountId, [
    ...Array.from({ length: 25 }, (_, i) =>
      craftAgent(500 + i, `Plain Helper ${i}`, 'Another helper with a gizmo in its text.', { handle: null }),
    ),
    ...Array.from({ length: 20 }, (_, i) =>
      craftAgent(600 + i, `Weather Reporter ${i}`, 'Reports the weather of a city.', { handle: null }),
    ),
  ]);

  const ringOwner = await newKey(['read', 'write']);
  const phrase = 'gizmo gadget gizmo repair gizmo';
  stuffed = await agent(ringOwner.key, `Gizmo Gizmo Gizmo ${phrase}`, `# ${phrase}\n\n${`${phrase}. `.repeat(30)}`);
  expect((await api(`/v1/featured-agents/${stuffed.address}`, { method: 'PUT', token: ADMIN_TOKEN })).status).toBe(200);
  for (let i = 0; i < 15; i++) {
    const mate = await agent(ringOwner.key, `Ring mate ${i}`, `# Ring mate ${i}\n\nForwards messages.`);
    for (let n = 0; n < 10; n++) await interact(mate, stuffed);
  }

  const maker = await newKey(['read', 'write']);
  honest = await agent(
    maker.key,
    'Gizmo Workshop',
    '# Gizmo Workshop\n\n<description>Repairs a broken gizmo: diagnoses the fault from a photo and a short description.</description>\n\n' +
      'Send the make, the model and what stopped working. It answers with the likely cause, the spare parts to order, ' +
      'their usual price, and step-by-step instructions with the tools you need, or a nearby workshop when a repair needs one.',
  );
  // Five agents of other accounts that use it once each: cross-account evidence, what AgentRank counts.
  const customers = await newKey(['read', 'write']);
  for (let i = 0; i < 5; i++) await interact(await agent(customers.key, `Customer ${i}`, `# Customer ${i}\n\nAsks for repairs.`), honest);
  await runCron();
});

describe('the preferred agents of a common-word query', () => {
  it('a same-account ring does not make a stuffed agent preferred; cross-account evidence makes an honest one preferred', async () => {
    const detail = async (identity: Identity) => json<AgentDetail>(await api(`/v2/agents/${identity.address}`, { token: reader }));
    expect(await detail(stuffed)).toMatchObject({ featured: true, recent_interactions: 150, agent_rank: 0 });
    expect((await detail(honest)).agent_rank).toBeGreaterThan(2);
    // The index the narrowed ranking reads (docs/decisions/0200): a page past its matches is the full ranking's.
    const preferred = await env.DB.prepare('SELECT a.address FROM search_preferred_fts p JOIN agents a ON a.rowid = p.rowid').all<{
      address: string;
    }>();
    expect(preferred.results.map((row) => row.address)).toEqual([honest.address]);
    for (const semantic_search of [false, true]) {
      const body = { search_text: 'gizmo', limit: 1, semantic_search };
      expect(await boundedSearch(body)).toEqual([honest.address]);
    }
  });
});
