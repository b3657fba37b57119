import { applyD1Migrations, createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { AgentSearchResponse } from '../../schemas/search.ts';
import worker from '../../workers/registry/src/index.ts';
import { api, freshIdentity, json, newKey, registered } from './helpers.ts';

/**
 * Migration 0019 marks every agent pending, so the cron embeds each again with the regenerated word table
 * (docs/decisions/0216). Vectors stored before it stand for the old table's: two agents' stored vectors and
 * concepts are swapped, so each holds the other's meaning until it is indexed again.
 */
const BEFORE_0019 = env.TEST_MIGRATIONS.filter((migration) => migration.name < '0019');
const UMBRELLA = 'will I need to bring an umbrella when I go out tomorrow';

let token: string;

async function firstFound(search_text: string): Promise<string | undefined> {
  const response = await api('/v1/search/agents', { method: 'POST', token, json: { search_text, limit: 10 } });
  expect(response.status).toBe(200);
  return (await json<AgentSearchResponse>(response)).agents[0]?.name;
}

async function runCron() {
  // The same run probes the agents' webhooks; they answer here rather than over the network.
  const probe = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response('ok'));
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: '*/5 * * * *' }), env, ctx);
  await waitOnExecutionContext(ctx);
  probe.mockRestore();
}

async function swapStoredMeaning(a: string, b: string) {
  const rowid = async (name: string) =>
    (await env.DB.prepare('SELECT rowid AS id FROM agents WHERE name = ?').bind(name).first<{ id: number }>())!.id;
  const [ra, rb] = [await rowid(a), await rowid(b)];
  for (const table of ['search_agent_vectors', 'search_agent_concepts'])
    await env.DB.batch(
      [
        [ra, -1],
        [rb, ra],
        [-1, rb],
      ].map(([from, to]) => env.DB.prepare(`UPDATE ${table} SET agent_rowid = ? WHERE agent_rowid = ?`).bind(to, from)),
    );
}

beforeAll(async () => {
  await applyD1Migrations(env.DB, BEFORE_0019);
  token = (await newKey()).key;
  const agents: [string, string, string][] = [
    ['Sky Watch', 'Rain and storm forecast for your city, hour by hour.', 'Weather forecasts: rain, storms, wind.'],
    ['Trail Scout', 'Hiking routes and mountain trails with elevation and difficulty.', 'Hiking trails and routes in the mountains.'],
    ['Ledger Lens', 'Tracks spending against a monthly budget and flags overspend.', 'Budgets and spending.'],
  ];
  for (const [name, description, about] of agents) {
    const profile = { description, readme: `# ${name}\n\n${about}`, avatar_url: '', starter_prompts: [] };
    expect((await registered(freshIdentity(), token, { name, profile })).status).toBeLessThan(300);
  }
  expect(await firstFound(UMBRELLA)).toBe('Sky Watch');
  await swapStoredMeaning('Sky Watch', 'Trail Scout');
  expect(await firstFound(UMBRELLA)).toBe('Trail Scout');
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
});

describe('migration 0019', () => {
  it('has the cron embed every agent stored before it again', async () => {
    const pending = await env.DB.prepare('SELECT count(*) AS n FROM search_semantic_pending').first<{ n: number }>();
    expect(pending?.n).toBe(3);
    await runCron();
    expect(await firstFound(UMBRELLA)).toBe('Sky Watch');
    const left = await env.DB.prepare('SELECT count(*) AS n FROM search_semantic_pending').first<{ n: number }>();
    expect(left?.n).toBe(0);
  });
});
