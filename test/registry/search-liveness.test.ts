import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import worker from '../../workers/registry/src/index.ts';
import { generateAgents } from './fixtures/corpus/generate.ts';
import { searchAgents } from './fixtures/search-client.ts';
import { PLAIN_LISTING, type SeedAgent } from './fixtures/search-seed.ts';
import { seedRegistry } from './fixtures/seeded-registry.ts';

/**
 * Search ranks agents the registry's own liveness probe found unreachable below those that answer, for every
 * caller: the probe's verdict (cron), not anything a caller reports.
 */
const [a, b] = [...generateAgents(2, 161)];
// The stronger text match for "tide tables": both words in its title and description.
const flaky: SeedAgent = {
  ...a!,
  ...PLAIN_LISTING,
  name: 'Tide Tables Live',
  url: 'https://flaky.example.com/webhook',
  description: 'Tide tables: high and low tide times for 3,000 harbours.',
  readme: '# Tide Tables Live\n\nTide tables for sailors.',
};
const steady: SeedAgent = {
  ...b!,
  ...PLAIN_LISTING,
  name: 'Harbour Almanac',
  url: 'https://steady.example.com/webhook',
  description: 'High and low tide times for harbours.',
  readme: '# Harbour Almanac\n\nTables of tides.',
};

let token: string;
let flakyIsDown = true;

async function probeAll() {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: '*/5 * * * *' }), env, ctx);
  await waitOnExecutionContext(ctx);
}

const order = async (body: Record<string, unknown>) => (await searchAgents(token, body)).agents.map((agent) => agent.name);

beforeAll(async () => {
  token = (await seedRegistry([flaky, steady])).token;
});

afterEach(() => vi.restoreAllMocks());

function mockWebhooks() {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.startsWith('https://flaky.example.com') && flakyIsDown) throw new TypeError('connection refused');
    return new Response(null, { status: 200 });
  });
}

describe('search and the liveness probe', () => {
  it('an unprobed agent is not demoted: the better text match leads', async () => {
    expect(await order({ search_text: 'tide tables' })).toEqual([flaky.name, steady.name]);
  });

  it('ranks an agent whose last probe failed below one that answers, lexical and hybrid alike', async () => {
    mockWebhooks();
    await probeAll();
    const row = await env.DB.prepare('SELECT last_probe_ok FROM agents WHERE address = ?')
      .bind(flaky.address)
      .first<{ last_probe_ok: number }>();
    expect(row?.last_probe_ok).toBe(0);
    expect(await order({ search_text: 'tide tables' })).toEqual([steady.name, flaky.name]);
    expect(await order({ search_text: 'tide tables', semantic_search: true })).toEqual([steady.name, flaky.name]);
    // Still found, and still listed under the filters that ask for unresponsive agents.
    expect(await order({ search_text: 'tide tables', filters: { state: ['unresponsive'] } })).toEqual([flaky.name]);
  });

  it('restores the agent once the probe reaches it again', async () => {
    flakyIsDown = false;
    mockWebhooks();
    await probeAll();
    expect(await order({ search_text: 'tide tables' })).toEqual([flaky.name, steady.name]);
  });
});
