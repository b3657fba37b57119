import { env, runInDurableObject, SELF } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { UsageReport } from '../../schemas/chat.ts';
import { changeLimits, createKey, openai, post, revokeKey } from './helpers.ts';

const ask = (content = 'echo: hi') => ({ model: 'llm1', messages: [{ role: 'user', content }] });

function limitHeaders(response: Response) {
  return Object.fromEntries([...response.headers].filter(([name]) => name.startsWith('x-ratelimit-')));
}

describe('per-key rate limits (a Durable Object per key)', () => {
  it('admits exactly the key’s requests per minute when they arrive all at once', async () => {
    const { key } = await createKey({ limits: { requests_per_minute: 7 } });
    const responses = await Promise.all(Array.from({ length: 12 }, () => post('/chat/completions', key, ask())));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(7);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    const refused = responses.find((r) => r.status === 429)!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(limitHeaders(refused)).toMatchObject({ 'x-ratelimit-limit-requests': '7', 'x-ratelimit-remaining-requests': '0' });
    expect(await refused.json()).toMatchObject({ error: { type: 'rate_limit_error', code: 'rate_limit_exceeded' } });
    const remaining = responses.filter((r) => r.status === 200).map((r) => Number(r.headers.get('x-ratelimit-remaining-requests')));
    expect(remaining.sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('uses the deployment default (DEFAULT_RPM) for a key without its own limits', async () => {
    const { key } = await createKey();
    const response = await post('/chat/completions', key, ask());
    expect(limitHeaders(response)).toMatchObject({
      'x-ratelimit-limit-requests': '30',
      'x-ratelimit-remaining-requests': '29',
      'x-ratelimit-limit-tokens': '20000',
      'x-ratelimit-reset-requests': expect.stringMatching(/^\d+(\.\d+)?m?s$/),
      'x-ratelimit-reset-tokens': expect.stringMatching(/^\d+(\.\d+)?m?s$/),
    });
  });

  it('admits exactly the tokens per minute under concurrency, reserving prompt plus max_tokens', async () => {
    const { key } = await createKey({ limits: { tokens_per_minute: 1000 } });
    // A slow upstream, so no admitted request settles (giving back what it did not use) before all are admitted.
    const heavy = { model: 'relay', messages: [{ role: 'user', content: 'scenario: slow 1000' }], max_tokens: 300 };
    const statuses = (await Promise.all(Array.from({ length: 5 }, () => post('/chat/completions', key, heavy)))).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
  });

  it('gives back what a completion did not use, so later requests fit again', async () => {
    const { key } = await createKey({ limits: { tokens_per_minute: 1000 } });
    const first = await post('/chat/completions', key, { ...ask(), max_tokens: 900 });
    expect(first.status).toBe(200);
    const used = ((await first.json()) as { usage: { total_tokens: number } }).usage.total_tokens;
    const next = await post('/chat/completions', key, { ...ask(), max_tokens: 600 });
    expect(next.status).toBe(200);
    const promptTokens = ((await next.json()) as { usage: { prompt_tokens: number } }).usage.prompt_tokens;
    expect(Number(next.headers.get('x-ratelimit-remaining-tokens'))).toBe(1000 - used - (promptTokens + 600));
  });

  it('reaches the SDK as RateLimitError', async () => {
    const { key } = await createKey({ limits: { requests_per_minute: 1 } });
    await openai(key).chat.completions.create(ask() as OpenAI.ChatCompletionCreateParamsNonStreaming);
    const failure = await openai(key)
      .chat.completions.create(ask() as OpenAI.ChatCompletionCreateParamsNonStreaming)
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OpenAI.RateLimitError);
  });

  it('applies limits changed in the registry from the next request (the cached key is dropped)', async () => {
    const { id, key } = await createKey({ limits: { requests_per_minute: 2 } });
    expect(limitHeaders(await post('/chat/completions', key, ask()))).toMatchObject({
      'x-ratelimit-limit-requests': '2',
      'x-ratelimit-remaining-requests': '1',
    });
    await changeLimits(id, { requests_per_minute: 50, tokens_per_minute: 9000 });
    expect(limitHeaders(await post('/chat/completions', key, ask()))).toMatchObject({
      'x-ratelimit-limit-requests': '50',
      'x-ratelimit-remaining-requests': '48',
      'x-ratelimit-limit-tokens': '9000',
    });
    await changeLimits(id, null);
    expect(limitHeaders(await post('/chat/completions', key, ask()))).toMatchObject({
      'x-ratelimit-limit-requests': '30',
      'x-ratelimit-limit-tokens': '20000',
    });
  });

  it('counts one key’s requests apart from another’s', async () => {
    const a = await createKey({ limits: { requests_per_minute: 1 } });
    const b = await createKey({ limits: { requests_per_minute: 1 } });
    expect((await post('/chat/completions', a.key, ask())).status).toBe(200);
    expect((await post('/chat/completions', b.key, ask())).status).toBe(200);
    expect((await post('/chat/completions', a.key, ask())).status).toBe(429);
  });
});

describe('revocation', () => {
  it('refuses a key the moment it is deleted in the registry', async () => {
    const { id, key } = await createKey();
    expect((await post('/chat/completions', key, ask())).status).toBe(200);
    await revokeKey(id);
    const response = await post('/chat/completions', key, ask());
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { type: 'authentication_error', message: 'API key revoked' } });
  });
});

describe('verified keys cached in the key’s meter', () => {
  it('refuses a cached key on every route the moment it is deleted, streaming included', async () => {
    const { id, key } = await createKey();
    for (let i = 0; i < 3; i++) expect((await post('/chat/completions', key, ask())).status).toBe(200);
    expect((await SELF.fetch('http://chat.test/v1/models', { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    await revokeKey(id);
    const streamed = await post('/chat/completions', key, { ...ask(), stream: true });
    expect(streamed.status).toBe(401);
    for (const path of ['/v1/models', '/v1/usage']) {
      const response = await SELF.fetch(`http://chat.test${path}`, { headers: { authorization: `Bearer ${key}` } });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: { message: 'API key revoked' } });
    }
  });

  it('stays revoked: later requests are refused, however many come at once', async () => {
    const { id, key } = await createKey();
    expect((await post('/chat/completions', key, ask())).status).toBe(200);
    await revokeKey(id);
    const statuses = (await Promise.all(Array.from({ length: 5 }, () => post('/chat/completions', key, ask())))).map((r) => r.status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
  });

  it('refuses a request racing the deletion once the deletion has answered', async () => {
    const { id, key } = await createKey();
    const during = Promise.all(Array.from({ length: 5 }, () => post('/chat/completions', key, ask())));
    await revokeKey(id);
    await during;
    expect((await post('/chat/completions', key, ask())).status).toBe(401);
  });

  it('answers only for the exact token it verified: another secret with the same key id is refused', async () => {
    const { key } = await createKey();
    expect((await post('/chat/completions', key, ask())).status).toBe(200);
    const forged = key.slice(0, -4) + (key.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    const response = await post('/chat/completions', forged, ask());
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { type: 'authentication_error', message: 'invalid API key' } });
    expect((await post('/chat/completions', key, ask())).status).toBe(200);
  });

  it('KeyRevocations confirms a stored revocation and refuses what is not a key id', async () => {
    const revocations = (exports as unknown as { KeyRevocations: { revoke(keyId: string): Promise<boolean> } }).KeyRevocations;
    const { id, key } = await createKey();
    expect((await post('/chat/completions', key, ask())).status).toBe(200);
    expect(await revocations.revoke('not-a-key-id')).toBe(false);
    expect(await revocations.revoke(id)).toBe(true);
    expect((await post('/chat/completions', key, ask())).status).toBe(401);
  });

  it('refuses a token that is not shaped like a key without a meter', async () => {
    const response = await post('/chat/completions', 'not-a-key', ask());
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { type: 'authentication_error', message: 'invalid API key' } });
  });

  it('keeps the key’s own limits and usage when answered from the cache', async () => {
    const { key } = await createKey({ limits: { requests_per_minute: 2 } });
    expect((await post('/chat/completions', key, ask())).status).toBe(200);
    const second = await post('/chat/completions', key, ask());
    expect(limitHeaders(second)).toMatchObject({ 'x-ratelimit-limit-requests': '2', 'x-ratelimit-remaining-requests': '0' });
    expect((await post('/chat/completions', key, ask())).status).toBe(429);
    const usage = await SELF.fetch('http://chat.test/v1/usage', { headers: { authorization: `Bearer ${key}` } });
    expect(UsageReport.parse(await usage.json()).totals.requests).toBe(2);
  });
});

describe('GET /v1/usage', () => {
  it('reports the calling key’s tokens, per model, as the completions reported them', async () => {
    const { key } = await createKey();
    const client = openai(key);
    const one = await client.chat.completions.create({ model: 'llm1', messages: [{ role: 'user', content: 'echo: first' }] });
    const two = await client.chat.completions.create({
      model: 'llm1-mini',
      messages: [{ role: 'user', content: 'summarise: One. Two two. Three three three.' }],
    });
    const stream = await client.chat.completions.create({
      model: 'llm1',
      messages: [{ role: 'user', content: 'echo: streamed' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let streamedUsage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) streamedUsage = chunk.usage ?? streamedUsage;

    const response = await SELF.fetch('http://chat.test/v1/usage', { headers: { authorization: `Bearer ${key}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-remaining-requests')).toBe('27');
    const report = UsageReport.parse(await response.json());
    const sum = (field: 'prompt_tokens' | 'completion_tokens') => one.usage![field] + two.usage![field] + streamedUsage![field];
    expect(report.totals).toEqual({
      requests: 3,
      prompt_tokens: sum('prompt_tokens'),
      completion_tokens: sum('completion_tokens'),
      total_tokens: sum('prompt_tokens') + sum('completion_tokens'),
    });
    expect(report.by_model.map((m) => [m.model, m.requests])).toEqual([
      ['llm1', 2],
      ['llm1-mini', 1],
    ]);
    expect(report.limits).toEqual({ requests_per_minute: 30, tokens_per_minute: 20000 });
  });

  it('keeps each key’s usage apart', async () => {
    const { key } = await createKey();
    const response = await SELF.fetch('http://chat.test/v1/usage', { headers: { authorization: `Bearer ${key}` } });
    expect(UsageReport.parse(await response.json()).totals.requests).toBe(0);
  });
});

describe('the usage ledger stays bounded', () => {
  it('keeps running totals per model, not a row per request, and still reports them all', async () => {
    const { id, key } = await createKey();
    for (let i = 0; i < 4; i += 1) expect((await post('/chat/completions', key, ask())).status).toBe(200);
    const stub = env.KEY_METER.get(env.KEY_METER.idFromName(id));
    const rows = await runInDurableObject(stub, (_instance, state) => {
      const tables = state.storage.sql
        .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'usage%'")
        .toArray();
      return tables.map(({ name }) => ({
        name,
        rows: Number(state.storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM ${name}`).one().n),
      }));
    });
    expect(rows.reduce((sum, table) => sum + table.rows, 0)).toBe(1);
    const report = UsageReport.parse(
      await (await SELF.fetch('http://chat.test/v1/usage', { headers: { authorization: `Bearer ${key}` } })).json(),
    );
    expect(report.totals.requests).toBe(4);
  });
});
