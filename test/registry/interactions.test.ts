import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
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

const record = (attestation: string, body: unknown) => api('/v2/agents/interactions', { method: 'POST', headers: { authorization: `Agent ${attestation}` }, json: body });

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

    expect(await json(await record(createAttestation(target), { target: target.address, source: source.address }))).toMatchObject({ total_interactions: 2 });
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

describe('POST /v2/agents/proxy/submit', () => {
  it('relays a signed envelope to the target webhook once and counts it', async () => {
    const { key, target, source } = await agentPair();
    const outbound = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => Response.json({ status: 'success' }));
    const text = serializeEnvelope(buildEnvelope({ sender: source, target: target.address, schemaDigest: 'model:x', payload: { request: 'hello' } }));

    const relayed = await api('/v2/agents/proxy/submit', { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
    expect(relayed.status).toBe(200);
    expect(await json(relayed)).toEqual({ delivered: true, target: target.address, status: 200, detail: '{"status":"success"}' });
    expect(outbound).toHaveBeenCalledTimes(1);
    const [url, init] = outbound.mock.calls[0]!;
    expect(url).toBe('https://target.example.com/webhook');
    expect(init?.body).toBe(text);

    const replay = await api('/v2/agents/proxy/submit', { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
    expect(replay.status).toBe(409);
    expect(outbound).toHaveBeenCalledTimes(1);
    expect((await json<AgentDetail>(await api(`/v2/agents/${target.address}`, { token: key.key }))).total_interactions).toBe(1);
  });

  it('refuses forged, malformed and unroutable envelopes without calling anyone', async () => {
    const { target, source } = await agentPair();
    const outbound = vi.spyOn(globalThis, 'fetch');
    const envelope = buildEnvelope({ sender: source, target: target.address, schemaDigest: 'model:x', payload: { request: 'hello' } });
    const forged = serializeEnvelope({ ...envelope, payload: buildEnvelope({ sender: source, target: target.address, schemaDigest: 'model:x', payload: { request: 'other' } }).payload });
    expect((await api('/v2/agents/proxy/submit', { method: 'POST', body: forged })).status).toBe(401);
    expect((await api('/v2/agents/proxy/submit', { method: 'POST', body: '{"version":1' })).status).toBe(406);
    const elsewhere = serializeEnvelope(buildEnvelope({ sender: source, target: freshIdentity().address, schemaDigest: 'model:x', payload: {} }));
    expect((await api('/v2/agents/proxy/submit', { method: 'POST', body: elsewhere })).status).toBe(404);
    expect(outbound).not.toHaveBeenCalled();
  });

  it('a failing target webhook is reported as 502, not counted', async () => {
    const { key, target, source } = await agentPair();
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response('boom', { status: 500 }));
    const text = serializeEnvelope(buildEnvelope({ sender: source, target: target.address, schemaDigest: 'model:x', payload: {} }));
    const response = await api('/v2/agents/proxy/submit', { method: 'POST', body: text });
    expect(response.status).toBe(502);
    expect(await json(response)).toMatchObject({ delivered: false, status: 500, detail: 'boom' });
    expect((await json<AgentDetail>(await api(`/v2/agents/${target.address}`, { token: key.key }))).total_interactions).toBe(0);
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
    for (let i = 0; i < DAILY_INTERACTIONS_PER_PAIR; i++) expect(await json(await record(createAttestation(source), body))).toMatchObject({ counted: true });
    const over = await record(createAttestation(source), body);
    expect(over.status).toBe(200);
    expect(await json(over)).toMatchObject({ counted: false, total_interactions: DAILY_INTERACTIONS_PER_PAIR });
  });
});
