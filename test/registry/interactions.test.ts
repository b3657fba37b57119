import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import worker from '../../workers/registry/src/index.ts';
import { buildEnvelope, serializeEnvelope } from '../../lib/envelope/index.ts';
import { createAttestation } from '../../lib/registry-client/index.ts';
import type { AgentDetail } from '../../schemas/registry.ts';
import { DAILY_INTERACTIONS_PER_PAIR } from '../../workers/registry/src/interactions/store.ts';
import { api, freshIdentity, json, migrate, newKey, registered } from './helpers.ts';

beforeAll(migrate);
afterEach(() => vi.restoreAllMocks());

async function agentPair() {
  const key = await newKey(['read', 'write']);
  const target = freshIdentity();
  const source = freshIdentity();
  await registered(target, key.key, { url: 'https://target.example.com/webhook' });
  // Only interactions from agents registered under an account count.
  await registered(source, (await newKey(['read', 'write'])).key, { url: 'https://source.example.com/webhook' });
  return { key, target, source };
}

/** Budgets are counted per clock minute: a test that spends one starts early in a minute. */
async function freshMinute() {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 20_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

const record = (attestation: string, body: unknown) =>
  api('/v2/agents/interactions', { method: 'POST', headers: { authorization: `Agent ${attestation}` }, json: body });

describe('POST /v2/agents/interactions (Authorization: Agent <attestation>)', () => {
  it('counts an attested interaction once; a replayed attestation counts nothing', async () => {
    const { key, target, source } = await agentPair();
    const attestation = createAttestation(source);
    const body = { target: target.address, session_id: crypto.randomUUID(), source: source.address, extra: 'ignored' };
    const first = await record(attestation, body);
    expect(first.status).toBe(200);
    expect(await json(first)).toEqual({ counted: true, target: target.address, total_interactions: 1, recent_interactions: 1 });

    const replay = await record(attestation, body);
    expect(replay.status).toBe(409);
    expect(await json(replay)).toEqual({ detail: expect.stringContaining('already used') });

    expect(await json(await record(createAttestation(target), { target: target.address, source: source.address }))).toMatchObject({
      total_interactions: 2,
    });
    const agent = await json<AgentDetail>(await api(`/v2/agents/${target.address}`, { token: key.key }));
    expect(agent).toMatchObject({ total_interactions: 2, recent_interactions: 2 });
  });

  it('refuses missing, forged, expired and not-yet-valid attestations (401)', async () => {
    const { target, source } = await agentPair();
    const body = { target: target.address, source: source.address };
    const missing = await api('/v2/agents/interactions', { method: 'POST', json: body });
    expect(missing.status).toBe(401);
    expect(await json(missing)).toEqual({ detail: expect.stringContaining('missing attestation') });

    const genuine = createAttestation(source);
    const [prefix, payload] = genuine.split(':');
    const forged = `${prefix}:${payload}:${createAttestation(freshIdentity()).split(':')[2]}`;
    expect(await json(await record(forged, body))).toEqual({ detail: expect.stringContaining('signature') });

    const now = Math.floor(Date.now() / 1000);
    const expired = await record(createAttestation(source, 60, now - 3600), body);
    expect(expired.status).toBe(401);
    expect(await json(expired)).toEqual({ detail: 'attestation has expired' });
    const future = await record(createAttestation(source, 60, now + 3600), body);
    expect(await json(future)).toEqual({ detail: 'attestation is not valid yet' });
    for (const junk of ['attr:', 'attr:AAAA:sig1qqqq', 'Bearer x', 'attr:!!!:sig1abc']) {
      const response = await record(junk, body);
      expect(response.status, junk).toBe(401);
    }
  });

  it('only the source or the target may attest (403); unknown target 404; bad body 406', async () => {
    const { target, source } = await agentPair();
    const bystander = await record(createAttestation(freshIdentity()), { target: target.address, source: source.address });
    expect(bystander.status).toBe(403);
    expect((await record(createAttestation(source), { target: freshIdentity().address, source: source.address })).status).toBe(404);
    expect((await record(createAttestation(source), { target: 'nope' })).status).toBe(406);
  });
});

describe('interaction counts cannot be inflated', () => {
  it('counts at most 10 interactions a day from one source to one target; the rest answer counted: false', async () => {
    const { target, source } = await agentPair();
    const results: { counted: boolean; total_interactions: number }[] = [];
    for (let i = 0; i < 12; i += 1)
      results.push(await json(await record(createAttestation(source), { target: target.address, source: source.address })));
    expect(results.filter((r) => r.counted)).toHaveLength(10);
    expect(results.at(-1)).toMatchObject({ counted: false, total_interactions: 10 });
    // Another registered source still counts.
    const other = freshIdentity();
    await registered(other, (await newKey(['read', 'write'])).key, { url: 'https://other.example.com/webhook' });
    expect(await json(await record(createAttestation(other), { target: target.address, source: other.address }))).toMatchObject({
      counted: true,
      total_interactions: 11,
    });
  }, 20_000);
});

describe('remembered lifetimes are clamped', () => {
  it('an attestation valid for longer than 24 h is refused (its nonce would be remembered as long)', async () => {
    const { target, source } = await agentPair();
    const response = await record(createAttestation(source, 10 * 365 * 86_400), { target: target.address, source: source.address });
    expect(response.status).toBe(401);
    expect(await json(response)).toMatchObject({ detail: expect.stringContaining('24 h') });
    const counted = await record(createAttestation(source, 3600), { target: target.address, source: source.address });
    expect(counted.status).toBe(200);
  });
});

describe('POST /v2/agents/proxy/submit', () => {
  it('relays a signed envelope to the target webhook once and counts it', async () => {
    const { key, target, source } = await agentPair();
    const outbound = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => Response.json({ status: 'success' }));
    const text = serializeEnvelope(
      buildEnvelope({ sender: source, target: target.address, schemaDigest: 'model:x', payload: { request: 'hello' } }),
    );

    const relayed = await api('/v2/agents/proxy/submit', { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
    expect(relayed.status).toBe(200);
    expect(await json(relayed)).toEqual({ delivered: true, target: target.address, status: 200, detail: 'delivered' });
    expect(outbound).toHaveBeenCalledTimes(1);
    const [url, init] = outbound.mock.calls[0]!;
    expect(url).toBe('https://target.example.com/webhook');
    expect(init?.body).toBe(text);
    expect(init?.redirect).toBe('manual');

    const replay = await api('/v2/agents/proxy/submit', { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
    expect(replay.status).toBe(409);
    expect(outbound).toHaveBeenCalledTimes(1);
    expect((await json<AgentDetail>(await api(`/v2/agents/${target.address}`, { token: key.key }))).total_interactions).toBe(1);
  });

  it('refuses forged, malformed and unroutable envelopes without calling anyone', async () => {
    const { target, source } = await agentPair();
    const outbound = vi.spyOn(globalThis, 'fetch');
    const envelope = buildEnvelope({ sender: source, target: target.address, schemaDigest: 'model:x', payload: { request: 'hello' } });
    const forged = serializeEnvelope({
      ...envelope,
      payload: buildEnvelope({ sender: source, target: target.address, schemaDigest: 'model:x', payload: { request: 'other' } }).payload,
    });
    expect((await api('/v2/agents/proxy/submit', { method: 'POST', body: forged })).status).toBe(401);
    expect((await api('/v2/agents/proxy/submit', { method: 'POST', body: '{"version":1' })).status).toBe(406);
    const elsewhere = serializeEnvelope(
      buildEnvelope({ sender: source, target: freshIdentity().address, schemaDigest: 'model:x', payload: {} }),
    );
    expect((await api('/v2/agents/proxy/submit', { method: 'POST', body: elsewhere })).status).toBe(404);
    expect(outbound).not.toHaveBeenCalled();
  });

  it('a failing target webhook is reported as 502, not counted', async () => {
    const { key, target, source } = await agentPair();
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response('boom', { status: 500 }));
    const text = serializeEnvelope(buildEnvelope({ sender: source, target: target.address, schemaDigest: 'model:x', payload: {} }));
    const response = await api('/v2/agents/proxy/submit', { method: 'POST', body: text });
    expect(response.status).toBe(502);
    const body = await json(response);
    expect(body).toMatchObject({ delivered: false, status: 500 });
    expect(JSON.stringify(body), 'the target’s answer is not relayed back').not.toContain('boom');
    expect((await json<AgentDetail>(await api(`/v2/agents/${target.address}`, { token: key.key }))).total_interactions).toBe(0);
  });

  it('a target webhook that cannot be reached (DNS, connection) is a 502 naming no host, address or error text', async () => {
    const { key, target, source } = await agentPair();
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(
      new TypeError('DNS lookup failed: target.example.com resolved to 10.20.30.40 (ENOTFOUND)'),
    );
    const text = serializeEnvelope(buildEnvelope({ sender: source, target: target.address, schemaDigest: 'model:x', payload: {} }));
    const response = await api('/v2/agents/proxy/submit', { method: 'POST', body: text });
    expect(response.status).toBe(502);
    const body = JSON.stringify(await json(response));
    for (const internal of ['DNS', 'target.example.com', '10.20.30.40', 'ENOTFOUND']) expect(body).not.toContain(internal);
    expect((await json<AgentDetail>(await api(`/v2/agents/${target.address}`, { token: key.key }))).total_interactions).toBe(0);
  });

  it('forwards the verified envelope re-serialised, never the raw body with unsigned fields', async () => {
    const { target, source } = await agentPair();
    const outbound = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => Response.json({ secret: 'the target’s private answer' }));
    const envelope = buildEnvelope({ sender: source, target: target.address, schemaDigest: 'model:x', payload: { request: 'hi' } });
    const smuggled = JSON.stringify({ ...JSON.parse(serializeEnvelope(envelope)), smuggled: 'not signed' });
    const response = await api('/v2/agents/proxy/submit', { method: 'POST', body: smuggled });
    expect(response.status).toBe(200);
    expect(JSON.stringify(await json(response))).not.toContain('private answer');
    expect(outbound.mock.calls[0]![1]?.body).toBe(serializeEnvelope(envelope));
  });

  it('does not follow a redirect from the target webhook', async () => {
    const { key, target, source } = await agentPair();
    const outbound = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async (input) =>
        String(input).startsWith('https://target.example.com')
          ? new Response(null, { status: 307, headers: { location: 'http://169.254.169.254/' } })
          : Response.json({}),
      );
    const text = serializeEnvelope(buildEnvelope({ sender: source, target: target.address, schemaDigest: 'model:x', payload: {} }));
    const response = await api('/v2/agents/proxy/submit', { method: 'POST', body: text });
    expect(response.status).toBe(502);
    expect(await json(response)).toMatchObject({ delivered: false, status: 307 });
    expect(outbound.mock.calls.map(([url]) => String(url))).toEqual(['https://target.example.com/webhook']);
    expect((await json<AgentDetail>(await api(`/v2/agents/${target.address}`, { token: key.key }))).total_interactions).toBe(0);
  });

  it('applies the URL policy where private URLs are not allowed', async () => {
    const key = await newKey(['read', 'write']);
    const outbound = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => Response.json({}));
    for (const url of ['http://[::127.0.0.1]/hook', 'http://localhost./hook', 'http://198.18.0.1/hook']) {
      const target = freshIdentity();
      expect((await registered(target, key.key, { url, endpoints: [{ url, weight: 1 }] })).status).toBeLessThan(300);
      const text = serializeEnvelope(
        buildEnvelope({ sender: freshIdentity(), target: target.address, schemaDigest: 'model:x', payload: {} }),
      );
      const ctx = createExecutionContext();
      const request = new Request('http://registry.test/v2/agents/proxy/submit', { method: 'POST', body: text });
      const response = await worker.fetch(request, { ...env, ALLOW_PRIVATE_URLS: 'false' }, ctx);
      await waitOnExecutionContext(ctx);
      expect(response.status, url).toBe(409);
    }
    expect(outbound).not.toHaveBeenCalled();
  });

  it('rate-limits relays per sender and per target (429 with Retry-After)', async () => {
    await freshMinute();
    const { target, source } = await agentPair();
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => Response.json({}));
    const send = (from: ReturnType<typeof freshIdentity>) =>
      api('/v2/agents/proxy/submit', {
        method: 'POST',
        body: serializeEnvelope(buildEnvelope({ sender: from, target: target.address, schemaDigest: 'model:x', payload: {} })),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 25; i += 1) statuses.push((await send(source)).status);
    expect(statuses.slice(0, 20).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429, 429, 429, 429]);
    const limited = await send(source);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    // Other senders still reach the target until the target's own budget is spent.
    const others: number[] = [];
    for (let i = 0; i < 45; i += 1) others.push((await send(freshIdentity())).status);
    expect(others.filter((status) => status === 200).length).toBe(40);
    expect(others.slice(40)).toEqual([429, 429, 429, 429, 429]);
  }, 45_000);

  it('refuses an envelope over 1 MiB before reading it whole (413)', async () => {
    const huge = `{"version":1,"sender":"${'a'.repeat(2 * 1024 * 1024)}"}`;
    expect((await api('/v2/agents/proxy/submit', { method: 'POST', body: huge })).status).toBe(413);
    const stream = new Blob([huge]).stream();
    const chunked = await api('/v2/agents/proxy/submit', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    expect(chunked.status).toBe(413);
  });
});

describe('interaction counts cannot be inflated by throwaway identities', () => {
  it('counts nothing from a source no account registered (counted: false)', async () => {
    const { target } = await agentPair();
    const throwaway = freshIdentity();
    const response = await record(createAttestation(throwaway), { target: target.address, source: throwaway.address });
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ counted: false, target: target.address, total_interactions: 0, recent_interactions: 0 });
  });

  it('counts nothing the target attests of itself', async () => {
    const { target } = await agentPair();
    const response = await record(createAttestation(target), { target: target.address, source: target.address });
    expect(await json(response)).toMatchObject({ counted: false, total_interactions: 0 });
  });

  it(`counts at most ${DAILY_INTERACTIONS_PER_PAIR} interactions per source and target a day`, async () => {
    const { target, source } = await agentPair();
    const body = { target: target.address, source: source.address };
    for (let i = 0; i < DAILY_INTERACTIONS_PER_PAIR; i++)
      expect(await json(await record(createAttestation(source), body))).toMatchObject({ counted: true });
    const over = await record(createAttestation(source), body);
    expect(over.status).toBe(200);
    expect(await json(over)).toMatchObject({ counted: false, total_interactions: DAILY_INTERACTIONS_PER_PAIR });
  });
});
