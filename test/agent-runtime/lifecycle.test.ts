import { env, SELF } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { addressOf, BASE, events, postJson, settle } from './helpers.ts';

async function registryRecord(address: string) {
  const response = await env.REGISTRY.fetch(`http://registry.test/v2/agents/${address}`, {
    headers: { authorization: `Bearer ${env.REGISTRY_API_KEY}` },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('startup: registration and startup handlers', () => {
  it('every agent of the Worker registers itself (title, README, webhook URL) on the Worker’s first request', async () => {
    await SELF.fetch(`${BASE}/test/events`);
    for (const name of ['alice', 'bob', 'carol'] as const) {
      const address = await addressOf(name);
      await vi.waitFor(async () => expect((await registryRecord(address)).status).toBe(200), { timeout: 15_000, interval: 200 });
      const { body } = await registryRecord(address);
      expect(body).toMatchObject({ address, name: `Fixture ${name}`, url: `http://${name}.test/${name}/webhook`, status: 'local' });
      expect(body.readme).toBe(`# Fixture ${name}\n\nAn agent of the lib/agent test fixture. Answers Ping with Pong.\n`);
    }
  });

  it('startup handlers ran for each agent, with its context', async () => {
    for (const name of ['alice', 'bob', 'carol'] as const) {
      const startups = await events({ agent: name, kind: 'startup' });
      expect(startups.length).toBeGreaterThanOrEqual(1);
      expect(startups.every((event) => event.payload === startups[0]!.payload)).toBe(true);
      expect(startups[0]!.payload).toBe(await addressOf(name));
    }
  });

  it('the almanac resolves registered agents to their webhook (what send uses)', async () => {
    const bob = await addressOf('bob');
    const response = await env.REGISTRY.fetch(`http://registry.test/v1/almanac/agents/${bob}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ address: bob, endpoints: [{ url: 'http://bob.test/bob/webhook', weight: 1 }] });
  });

  it('delivered messages are reported to the registry as interactions with signed attestations', async () => {
    const bob = await addressOf('bob');
    const before = (await registryRecord(bob)).body.total_interactions as number;
    const { session } = await postJson<{ session: string }>('/test/alice/send', { to: 'bob', text: 'count me', count: 2 });
    await settle({ agent: 'bob', kind: 'received', session }, 2);
    await vi.waitFor(async () => expect((await registryRecord(bob)).body.total_interactions).toBe(before + 2), {
      timeout: 10_000,
      interval: 200,
    });
  });

  it('shutdown runs on request: the agent signs itself inactive', async () => {
    const carol = await addressOf('carol');
    await postJson('/test/carol/shutdown', {});
    const { body } = await registryRecord(carol);
    expect(body.is_active).toBe(false);
  });
});
