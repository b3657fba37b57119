import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import worker from '../../workers/registry/src/index.ts';
import { migrate } from './helpers.ts';

beforeAll(migrate);
afterEach(() => vi.restoreAllMocks());

async function runCron() {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(null, { status: 200 }));
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: '*/5 * * * *' }), env, ctx);
  await waitOnExecutionContext(ctx);
}

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
const count = async (sql: string, ...params: unknown[]) =>
  (await env.DB.prepare(sql)
    .bind(...params)
    .first<{ n: number }>())!.n;

describe('the cron sweeps what would otherwise grow without end', () => {
  it('forgets search sessions after 7 days, clicks after 90 days, ended rate windows and expired nonces', async () => {
    const id = crypto.randomUUID().slice(0, 8);
    const nowSeconds = Math.floor(Date.now() / 1000);
    await env.DB.batch([
      env.DB.prepare('INSERT INTO search_sessions (search_id, query_key, source, started_at) VALUES (?, ?, NULL, ?)').bind(
        `${id}-old`,
        'q',
        daysAgo(8),
      ),
      env.DB.prepare('INSERT INTO search_sessions (search_id, query_key, source, started_at) VALUES (?, ?, NULL, ?)').bind(
        `${id}-new`,
        'q',
        daysAgo(1),
      ),
      env.DB.prepare('INSERT INTO search_clicks (search_id, address, query_key, page_index, clicked_at) VALUES (?, ?, ?, 0, ?)').bind(
        `${id}-c1`,
        'a',
        'q',
        daysAgo(91),
      ),
      env.DB.prepare('INSERT INTO search_clicks (search_id, address, query_key, page_index, clicked_at) VALUES (?, ?, ?, 0, ?)').bind(
        `${id}-c2`,
        'a',
        'q',
        daysAgo(30),
      ),
      env.DB.prepare('INSERT INTO rate_windows (bucket, count, expires_at) VALUES (?, 1, ?)').bind(`${id}:ended`, nowSeconds - 1),
      env.DB.prepare('INSERT INTO rate_windows (bucket, count, expires_at) VALUES (?, 1, ?)').bind(`${id}:open`, nowSeconds + 60),
      env.DB.prepare('INSERT INTO attestation_nonces (nonce, address, valid_to) VALUES (?, ?, ?)').bind(`${id}:far`, 'a', 2 ** 53),
    ]);
    await runCron();
    expect(await count('SELECT count(*) AS n FROM search_sessions WHERE search_id LIKE ?', `${id}-%`)).toBe(1);
    expect(await count('SELECT count(*) AS n FROM search_sessions WHERE search_id = ?', `${id}-new`)).toBe(1);
    expect(await count('SELECT count(*) AS n FROM search_clicks WHERE search_id LIKE ?', `${id}-%`)).toBe(1);
    expect(await count('SELECT count(*) AS n FROM search_clicks WHERE search_id = ?', `${id}-c2`)).toBe(1);
    expect(await count('SELECT count(*) AS n FROM rate_windows WHERE bucket LIKE ?', `${id}:%`)).toBe(1);
    // A nonce row older code stored with a sender-chosen lifetime is clamped to a day.
    const nonce = await env.DB.prepare('SELECT valid_to FROM attestation_nonces WHERE nonce = ?')
      .bind(`${id}:far`)
      .first<{ valid_to: number }>();
    expect(nonce!.valid_to).toBeLessThanOrEqual(nowSeconds + 86_400 + 120);
  });
});
