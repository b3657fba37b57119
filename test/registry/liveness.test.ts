import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import worker from '../../workers/registry/src/index.ts';
import type { AgentDetail } from '../../schemas/registry.ts';
import { api, freshIdentity, json, migrate, newKey, registered } from './helpers.ts';

beforeAll(migrate);
afterEach(() => vi.restoreAllMocks());

async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: '*/5 * * * *' }), env, ctx);
  await waitOnExecutionContext(ctx);
}

describe('cron liveness probe', () => {
  it('records each webhook’s answer and time, and derives active / offline / local', async () => {
    const key = await newKey(['read', 'write']);
    const up = freshIdentity();
    const down = freshIdentity();
    const local = freshIdentity();
    await registered(up, key.key, { url: 'https://up.example.com/webhook' });
    await registered(down, key.key, { url: 'https://down.example.com/webhook' });
    await registered(local, key.key, { url: 'http://localhost:5999/webhook' });

    let downIsDown = true;
    const outbound = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.startsWith('https://down.example.com') && downIsDown) throw new TypeError('connection refused');
      if (url.startsWith('https://up.example.com')) return new Response(null, { status: 405 });
      return new Response(null, { status: 200 });
    });
    await runCron();
    expect(outbound.mock.calls.some(([, init]) => init?.method === 'HEAD')).toBe(true);

    const detail = async (identity: { address: string }) =>
      json<AgentDetail>(await api(`/v2/agents/${identity.address}`, { token: key.key }));
    expect(await detail(up)).toMatchObject({ status: 'active', last_probe_ok: true, last_probe_at: expect.any(String) });
    expect(await detail(down)).toMatchObject({ status: 'offline', last_probe_ok: false });
    expect(await detail(local)).toMatchObject({ status: 'local', last_probe_ok: true });
    const row = await env.DB.prepare('SELECT last_probe_detail FROM agents WHERE address = ?')
      .bind(down.address)
      .first<{ last_probe_detail: string }>();
    expect(row?.last_probe_detail).toContain('connection refused');

    downIsDown = false;
    await runCron();
    expect(await detail(down)).toMatchObject({ status: 'active', last_probe_ok: true });
  });

  it('a re-registered webhook starts unprobed', async () => {
    const key = await newKey(['read', 'write']);
    const identity = freshIdentity();
    await registered(identity, key.key, { url: 'https://flaky.example.com/webhook' });
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(null, { status: 503 }));
    await runCron();
    expect((await json<AgentDetail>(await api(`/v2/agents/${identity.address}`, { token: key.key }))).status).toBe('offline');
    const moved = await api(`/v2/agents/${identity.address}`, {
      method: 'PATCH',
      token: key.key,
      json: { url: 'https://moved.example.com/webhook', endpoints: [{ url: 'https://moved.example.com/webhook', weight: 1 }] },
    });
    expect((await json<{ agent: AgentDetail }>(moved)).agent).toMatchObject({ status: 'active', last_probe_ok: null, last_probe_at: null });
  });

  it('lets recent_interactions age out after 30 days while the total stays', async () => {
    const key = await newKey(['read', 'write']);
    const identity = freshIdentity();
    await registered(identity, key.key);
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
    await env.DB.batch([
      env.DB.prepare("INSERT INTO interactions (target, source, kind, at) VALUES (?, ?, 'attested', ?)").bind(
        identity.address,
        identity.address,
        old,
      ),
      env.DB.prepare('UPDATE agents SET total_interactions = 5, recent_interactions = 1 WHERE address = ?').bind(identity.address),
    ]);
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(null, { status: 200 }));
    await runCron();
    expect(await json<AgentDetail>(await api(`/v2/agents/${identity.address}`, { token: key.key }))).toMatchObject({
      total_interactions: 5,
      recent_interactions: 0,
    });
    expect(
      (await env.DB.prepare('SELECT count(*) AS n FROM interactions WHERE target = ?').bind(identity.address).first<{ n: number }>())?.n,
    ).toBe(0);
  });

  it('does not probe agents no account registered (almanac-only): an anonymous write makes the registry call no one', async () => {
    const key = await newKey(['read', 'write']);
    const orphan = freshIdentity();
    await registered(orphan, key.key, {
      url: 'https://orphan.example.com/webhook',
      endpoints: [{ url: 'https://orphan.example.com/webhook', weight: 1 }],
    });
    await env.DB.prepare('UPDATE agents SET account_id = NULL, last_probe_at = NULL WHERE address = ?').bind(orphan.address).run();
    const outbound = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(null, { status: 200 }));
    await runCron();
    expect(outbound.mock.calls.map(([url]) => String(url))).not.toContain('https://orphan.example.com/webhook');
  });
});
