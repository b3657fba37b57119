import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { AgentSearchResponse } from '../../schemas/search.ts';
import worker from '../../workers/registry/src/index.ts';
import { AGENT_COLUMNS, registrationColumns } from './fixtures/corpus/registration-columns.ts';
import { accountWithKey, craftAgent } from './fixtures/search-seed.ts';
import { api, freshIdentity, json, migrate, newKey, registered } from './helpers.ts';

/**
 * The offline semantic source's index (0014_search_semantic_index.sql, search/semantic-index.ts): an agent is
 * found by meaning as soon as registration stores it, by its new meaning once its text changes, and an agent
 * written into SQL by another path is found once the cron has indexed it. Requests share no word with the agents.
 */

const UMBRELLA = 'will I need to bring an umbrella when I go out tomorrow';
const LEFTOVERS = 'what could I make for dinner tonight from the leftovers in my fridge';

let token: string;

async function search(search_text: string, extra: Record<string, unknown> = {}) {
  const response = await api('/v1/search/agents', { method: 'POST', token, json: { search_text, limit: 10, ...extra } });
  expect(response.status).toBe(200);
  return {
    mode: response.headers.get('x-search-mode'),
    names: (await json<AgentSearchResponse>(response)).agents.map((agent) => agent.name),
  };
}

function profile(description: string, readme: string) {
  return { profile: { description, readme, avatar_url: '', starter_prompts: [] } };
}

beforeAll(async () => {
  await migrate();
  token = (await newKey()).key;
  // Neighbours, so a hit is a ranking and not the only agent there is.
  const neighbours: [string, string][] = [
    ['Ledger Lens', 'Tracks spending against a monthly budget and flags overspend.'],
    ['Parcel Pilot', 'Follows shipments across couriers and reports delivery status.'],
  ];
  for (const [name, description] of neighbours) {
    const response = await registered(freshIdentity(), token, { name, ...profile(description, `# ${name}\n\n${description}`) });
    expect(response.status).toBeLessThan(300);
  }
});

describe('the semantic index', () => {
  it('finds a registered agent by meaning at once, and by its new meaning after it is re-registered', async () => {
    const identity = freshIdentity();
    const sky = profile('Rain and storm forecast for your city, hour by hour.', '# Sky Watch\n\nWeather forecasts: rain, storms, wind.');
    expect((await registered(identity, token, { name: 'Sky Watch', ...sky })).status).toBeLessThan(300);
    // A sparser agent of the same meaning, which Sky Watch outranks while it means weather.
    const rain = profile('Says whether it will rain.', '# Cloud Cover\n\nRain.');
    expect((await registered(freshIdentity(), token, { name: 'Cloud Cover', ...rain })).status).toBeLessThan(300);
    expect(await search(UMBRELLA)).toEqual({ mode: 'hybrid', names: ['Sky Watch', 'Cloud Cover'] });
    // The words alone do not find it: the hit above came from the index.
    expect((await search(UMBRELLA, { semantic_search: false })).names).not.toContain('Sky Watch');

    const cook = profile('Recipes from the food in your pantry and fridge.', '# Sky Watch\n\nCooking ideas, meals and recipes.');
    expect((await registered(identity, token, { name: 'Sky Watch', ...cook })).status).toBeLessThan(300);
    expect((await search(LEFTOVERS)).names[0]).toBe('Sky Watch');
    // An unrelated agent may still follow as a weak neighbour in a registry this small.
    expect((await search(UMBRELLA)).names[0]).toBe('Cloud Cover');
  });

  it('re-registers an agent another path left pending, and indexes its new text at once', async () => {
    const identity = freshIdentity();
    const tides = profile('Tide times and heights for harbours.', '# Tide Table\n\nTides for harbours and beaches.');
    expect((await registered(identity, token, { name: 'Tide Table', ...tides })).status).toBeLessThan(300);
    // Another path changes its text: the index marks it pending until the cron or a registration indexes it.
    await env.DB.prepare('UPDATE agents SET description = ? WHERE address = ?').bind('Tides for surf beaches.', identity.address).run();
    // Registration is an upsert: its DO UPDATE fires the index's trigger while the pending row exists (was a 500).
    const ferries = profile('Ferry timetables between islands.', '# Tide Table\n\nFerry crossings and sailing times.');
    const again = await registered(identity, token, { name: 'Tide Table', ...ferries });
    expect(again.status, await again.clone().text()).toBeLessThan(300);
    const pending = await env.DB.prepare(
      'SELECT count(*) AS n FROM search_semantic_pending WHERE agent_rowid = (SELECT rowid FROM agents WHERE address = ?)',
    )
      .bind(identity.address)
      .first<{ n: number }>();
    expect(pending?.n).toBe(0);
  });

  it('indexes agents written by another path from the cron', async () => {
    const agent = craftAgent(91, 'Trail Scout', 'Hiking routes and mountain trails with elevation and difficulty.', {
      geo_location: null,
      readme: '# Trail Scout\n\nHiking trails and routes in the mountains.',
    });
    const owner = await accountWithKey(env.DB);
    await env.DB.prepare(`INSERT INTO agents (${AGENT_COLUMNS.join(', ')}) VALUES (${AGENT_COLUMNS.map(() => '?').join(', ')})`)
      .bind(...registrationColumns(owner.accountId, agent))
      .run();
    const request = 'somewhere nice to go for a long walk up a hill this weekend';
    expect((await search(request)).names).not.toContain('Trail Scout');

    // The same run probes the agents' webhooks; they answer here rather than over the network.
    const probe = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response('ok'));
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: '*/5 * * * *' }), env, ctx);
    await waitOnExecutionContext(ctx);
    probe.mockRestore();
    expect((await search(request)).names[0]).toBe('Trail Scout');
  });
});
