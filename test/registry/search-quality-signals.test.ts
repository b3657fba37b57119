import { env } from 'cloudflare:test';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Identity } from '../../lib/identity/index.ts';
import type { AgentDetail } from '../../schemas/registry.ts';
import { interact, runCron } from './fixtures/agent-rank-cron.ts';
import { searchAgents } from './fixtures/search-client.ts';
import { api, freshIdentity, json, migrate, newKey, registered } from './helpers.ts';

/**
 * Issue 25's quality and trust signals, through registration, the interactions endpoint, the cron and search:
 * keyword stuffing is demoted inside the SQL score (so `asc` and `cutoff` stay exact), and AgentRank counts only
 * interactions between agents of different accounts.
 */
beforeAll(migrate);
afterEach(() => vi.restoreAllMocks());

async function agent(token: string, name: string, readme: string, identity = freshIdentity()) {
  const response = await registered(identity, token, {
    name,
    profile: { description: '', readme, avatar_url: '', starter_prompts: [] },
  });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return identity;
}

const order = async (token: string, body: Record<string, unknown>) =>
  (await searchAgents(token, { limit: 10, ...body })).agents.map((found) => found.address);

describe('keyword stuffing is demoted in the SQL score', () => {
  it('a stuffed agent that repeats the request and lists unrelated domains ranks below the specialist, exactly in both directions', async () => {
    const { key } = await newKey(['read', 'write']);
    const specialist = await agent(
      key,
      'Quillmark',
      '# Quillmark\n\n<description>Dates quillmark ink on old letters and manuscripts from the pigment and the paper.</description>\n\n' +
        'Send a photo of the page; it answers with the likely decade and the ink family.',
    );
    const phrase = 'quillmark ink dating manuscripts';
    const stuffed = await agent(
      key,
      `Quillmark Ink Dating Manuscripts ${phrase}`,
      `# ${phrase}\n\n<description>${`${phrase}. `.repeat(15)}</description>\n\n${`${phrase}\n`.repeat(30)}` +
        'weather forecast currency converter flights hotels parcel tracking recipes stocks crypto mortgage visa pollen playlist dog breeds solar',
    );
    const body = { search_text: 'quillmark ink dating manuscripts' };
    const desc = await order(key, body);
    expect(desc.slice(0, 2)).toEqual([specialist.address, stuffed.address]);
    expect(await order(key, { ...body, direction: 'asc' })).toEqual(desc.toReversed());
    // The cutoff is relative to the best score, which is the specialist's: the demoted agent is judged by its demoted score.
    const kept = await order(key, { ...body, cutoff: 0.99 });
    expect(kept).toEqual([specialist.address]);

    // The stored factor is what decides: with it set back to 1 the stuffed agent wins the same search.
    await env.DB.prepare('UPDATE agents SET text_quality = 1 WHERE address = ?').bind(stuffed.address).run();
    expect((await order(key, body))[0]).toBe(stuffed.address);

    // It is computed on every write: re-registering the same text sets it again.
    await agent(
      key,
      `Quillmark Ink Dating Manuscripts ${phrase}`,
      `# ${phrase}\n\n<description>${`${phrase}. `.repeat(15)}</description>\n\n${`${phrase}\n`.repeat(30)}`,
      stuffed,
    );
    expect((await order(key, body))[0]).toBe(specialist.address);
  });
});

describe('AgentRank: PageRank over interactions between different accounts', () => {
  const detail = async (token: string, identity: Identity) => json<AgentDetail>(await api(`/v2/agents/${identity.address}`, { token }));

  it('a same-account ring gains nothing; a cross-account history lifts an agent; it never wins a query it does not fit', async () => {
    const ringOwner = await newKey(['read', 'write']);
    const otherOwner = await newKey(['read', 'write']);
    const clients = await newKey(['read', 'write']);
    // Enough words that neither falls short of substance (text-quality.ts): only the interactions differ.
    const text = (extra: string) =>
      '# Tidewick\n\n<description>Tidewick tide tables for small harbours: high and low water times.</description>\n\n' +
      'Ask for a harbour and a date. Answers give each time in local clock hours, with the height above chart datum in metres, ' +
      `for sailors, anglers and walkers planning a crossing or a beach visit. ${extra}`;
    const ring = await agent(ringOwner.key, 'Tidewick Tables', text(''));
    const ringMates = [
      await agent(ringOwner.key, 'Ring mate one', '# Ring mate one\n\nForwards messages.'),
      await agent(ringOwner.key, 'Ring mate two', '# Ring mate two\n\nForwards messages.'),
    ];
    // A little more text: the same words, a slightly weaker text match than the ring agent's.
    const honest = await agent(
      otherOwner.key,
      'Tidewick Tables',
      text('Coverage includes most ports on the list published by the national hydrographic office, updated every year.'),
    );
    const mooring = await agent(
      otherOwner.key,
      'Berthline',
      '# Berthline\n\n<description>Mooring planner: books a visitor mooring buoy or berth in a marina for the night.</description>',
    );
    const client = await agent(clients.key, 'Harbour client', '# Harbour client\n\nAsks other agents about harbours.');

    const body = { search_text: 'tidewick tide tables' };
    await runCron();
    expect((await order(ringOwner.key, body)).slice(0, 2)).toEqual([ring.address, honest.address]);

    for (let i = 0; i < 5; i++) {
      for (const mate of ringMates) {
        await interact(mate, ring);
        await interact(ring, mate);
      }
    }
    await interact(client, honest);
    await interact(client, honest);
    await runCron();

    expect(await detail(ringOwner.key, ring)).toMatchObject({ recent_interactions: 10, cross_account_interactions: 0, agent_rank: 0 });
    const lifted = await detail(ringOwner.key, honest);
    expect(lifted).toMatchObject({ recent_interactions: 2, cross_account_interactions: 2 });
    expect(lifted.agent_rank).toBeGreaterThan(0);
    expect(await detail(ringOwner.key, client)).toMatchObject({ agent_rank: 0 });
    expect((await order(ringOwner.key, body)).slice(0, 2)).toEqual([honest.address, ring.address]);

    // The lifted agent's README says "tide", "harbour" and "week"; the mooring planner fits the request.
    expect((await order(ringOwner.key, { search_text: 'book a mooring in a marina for the night' }))[0]).toBe(mooring.address);
  });
});
