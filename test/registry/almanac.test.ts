import { SELF } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { Identity } from '../../lib/identity/index.ts';
import { registerAgent, RegistryError, signVerifiableModel, updateAgentStatus } from '../../lib/registry-client/index.ts';
import type { AgentDetail } from '../../schemas/registry.ts';
import { FINANCIAL } from './fixtures/vectors.ts';
import { api, BASE, freshIdentity, json, migrate, newKey, registered, statusUpdate } from './helpers.ts';

beforeAll(migrate);

const viaWorker: typeof fetch = (input, init) => SELF.fetch(new Request(input, init));

describe('signed status updates (POST /v1/almanac/agents/{address}/status)', () => {
  it('inactive then active again; each accepted only with the agent’s own signature', async () => {
    const key = await newKey(['read', 'write']);
    const identity = freshIdentity();
    await registered(identity, key.key);
    const now = Math.floor(Date.now() / 1000);

    const off = await api(`/v1/almanac/agents/${identity.address}/status`, { method: 'POST', json: statusUpdate(identity, false, now) });
    expect(await json(off)).toEqual({ address: identity.address, is_active: false, status: 'offline' });
    expect((await json<AgentDetail>(await api(`/v2/agents/${identity.address}`, { token: key.key }))).is_active).toBe(false);

    const forged = signVerifiableModel(freshIdentity(), { agent_identifier: identity.address, is_active: true, timestamp: now + 1 });
    const refused = await api(`/v1/almanac/agents/${identity.address}/status`, { method: 'POST', json: forged });
    expect(refused.status).toBe(401);
    expect(await json(refused)).toEqual({ detail: expect.stringContaining('signature') });

    const tampered = { ...statusUpdate(identity, false, now + 1), is_active: true };
    expect((await api(`/v1/almanac/agents/${identity.address}/status`, { method: 'POST', json: tampered })).status).toBe(401);

    const on = await api(`/v1/almanac/agents/${identity.address}/status`, { method: 'POST', json: statusUpdate(identity, true, now + 2) });
    expect(await json(on)).toMatchObject({ is_active: true, status: 'active' });

    const replay = await api(`/v1/almanac/agents/${identity.address}/status`, { method: 'POST', json: statusUpdate(identity, false, now) });
    expect(replay.status).toBe(401);
    expect(await json(replay)).toEqual({ detail: expect.stringContaining('newer signed message') });

    const old = await api(`/v1/almanac/agents/${identity.address}/status`, {
      method: 'POST',
      json: statusUpdate(identity, false, now - 3600),
    });
    expect(old.status).toBe(401);
  });

  it('accepts the agent_address alias and rejects a mismatched path, an unknown agent and bad bodies', async () => {
    const key = await newKey(['read', 'write']);
    const identity = freshIdentity();
    await registered(identity, key.key);
    const timestamp = Math.floor(Date.now() / 1000);
    const signed = signVerifiableModel(identity, { agent_identifier: identity.address, is_active: true, timestamp });
    const alias = { agent_address: identity.address, is_active: true, timestamp, signature: signed.signature };
    expect((await api(`/v1/almanac/agents/${identity.address}/status`, { method: 'POST', json: alias })).status).toBe(200);

    const other = freshIdentity();
    expect((await api(`/v1/almanac/agents/${other.address}/status`, { method: 'POST', json: statusUpdate(identity, true) })).status).toBe(
      406,
    );
    expect((await api(`/v1/almanac/agents/${other.address}/status`, { method: 'POST', json: statusUpdate(other, true) })).status).toBe(404);
    const missing = await api(`/v1/almanac/agents/${identity.address}/status`, { method: 'POST', json: { is_active: true } });
    expect(missing.status).toBe(406);
    expect(await json(missing)).toEqual({ detail: expect.any(String) });
  });
});

describe('almanac lookup (GET /v1/almanac/agents/{address})', () => {
  it('is public, answers endpoints, 404 for unknown', async () => {
    const key = await newKey(['read', 'write']);
    const identity = freshIdentity();
    await registered(identity, key.key, { endpoints: [], url: 'https://only-url.example.com/webhook' });
    const found = await api(`/v1/almanac/agents/${identity.address}?prefix=test-agent`);
    expect(found.status).toBe(200);
    expect(await json(found)).toMatchObject({
      address: identity.address,
      endpoints: [{ url: 'https://only-url.example.com/webhook', weight: 1 }],
      status: 'active',
      registered: true,
    });
    const unknown = await api(`/v1/almanac/agents/${freshIdentity().address}`);
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toEqual({ detail: 'agent not found' });
  });
});

describe('older SDK forms', () => {
  it('signed almanac attestation, then /v1/auth challenge + inline proof on POST /v1/agents, then PUT /v1/agents', async () => {
    const key = await newKey(['read', 'write']);
    const identity = freshIdentity();
    const attestation = signVerifiableModel(identity, {
      agent_identifier: identity.address,
      protocols: [`proto:${'b'.repeat(64)}`],
      endpoints: [{ url: 'https://old.example.com/submit', weight: 1 }],
      metadata: { geolocation: { city: 'Zürich' } },
      timestamp: Math.floor(Date.now() / 1000),
    });
    const almanac = await api('/v1/almanac/agents', { method: 'POST', json: attestation });
    expect(almanac.status).toBe(200);
    expect(await json(almanac)).toMatchObject({
      address: identity.address,
      endpoints: [{ url: 'https://old.example.com/submit', weight: 1 }],
      registered: false,
    });
    expect((await api('/v1/almanac/agents', { method: 'POST', json: attestation })).status).toBe(200);
    expect(
      (
        await api('/v1/almanac/agents', {
          method: 'POST',
          json: { ...attestation, endpoints: [{ url: 'https://evil.example.com/submit', weight: 1 }] },
        })
      ).status,
    ).toBe(401);

    // Known to the almanac only: not registered to any account yet, so the SDK's existence check says 404.
    expect((await api(`/v1/agents/${identity.address}`, { token: key.key })).status).toBe(404);

    const { challenge } = await json<{ challenge: string }>(
      await api('/v1/auth/challenge', { method: 'POST', token: key.key, json: { address: identity.address } }),
    );
    const created = await api('/v1/agents', {
      method: 'POST',
      token: key.key,
      json: {
        address: identity.address,
        challenge,
        challenge_response: identity.sign(challenge),
        endpoint: 'https://old.example.com/submit',
        agent_type: 'mailbox',
      },
    });
    expect(created.status).toBe(200);
    const put = await api(`/v1/agents/${identity.address}`, {
      method: 'PUT',
      token: key.key,
      json: { name: 'Old style', readme: 'Readme v1' },
    });
    expect(put.status).toBe(200);
    expect((await json<{ agent: AgentDetail }>(put)).agent).toMatchObject({
      name: 'Old style',
      readme: 'Readme v1',
      type: 'mailbox',
      protocols: [`proto:${'b'.repeat(64)}`],
    });
  });
});

describe('lib/registry-client registerAgent', () => {
  it('performs the SDK sequence and is idempotent on re-registration', async () => {
    const key = await newKey(['read', 'write']);
    const options = {
      seed: FINANCIAL.seed,
      url: 'https://fin.example.com/webhook',
      token: key.key,
      title: 'Financial agent',
      readme: '![tag:finance](x)\n<description>Filings.</description>',
      registryUrl: BASE,
      fetch: viaWorker,
    };
    const first = await registerAgent(options);
    expect(first.address).toBe(FINANCIAL.address);
    expect(first.created).toBe(true);
    expect(first.agent).toMatchObject({
      name: 'Financial agent',
      tags: ['finance'],
      description: 'Filings.',
      status: 'active',
      is_active: true,
    });
    const afterStatus = await json<AgentDetail>(await api(`/v2/agents/${FINANCIAL.address}`, { token: key.key }));
    expect(afterStatus.last_status_update).not.toBeNull();
    const second = await registerAgent({ ...options, title: 'Financial agent v2' });
    expect(second.created).toBe(false);
    expect(second.agent.name).toBe('Financial agent v2');
    await updateAgentStatus({ seed: FINANCIAL.seed, active: false, registryUrl: BASE, fetch: viaWorker });
    expect((await json<AgentDetail>(await api(`/v2/agents/${FINANCIAL.address}`, { token: key.key }))).status).toBe('offline');
  });

  it('throws a RegistryError carrying the status and detail', async () => {
    const owner = await newKey(['read', 'write']);
    const other = await newKey(['read', 'write']);
    const seed = `client ${crypto.randomUUID()}`;
    await registerAgent({
      seed,
      url: 'https://a.example.com/webhook',
      token: owner.key,
      title: 'A',
      readme: '',
      registryUrl: BASE,
      fetch: viaWorker,
    });
    const attempt = registerAgent({
      seed,
      url: 'https://b.example.com/webhook',
      token: other.key,
      title: 'B',
      readme: '',
      registryUrl: BASE,
      fetch: viaWorker,
    });
    await expect(attempt).rejects.toBeInstanceOf(RegistryError);
    await expect(attempt).rejects.toMatchObject({ status: 409, step: 'registration' });
    expect(Identity.fromSeed(seed, 0).address).toMatch(/^agent1/);
  });
});
