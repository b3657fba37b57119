import { beforeAll, describe, expect, it } from 'vitest';
import { signVerifiableModel } from '../../lib/registry-client/index.ts';
import type { AlmanacBatchResponse, AlmanacRecord } from '../../schemas/registry.ts';
import type { Identity } from '../../lib/identity/index.ts';
import { api, freshIdentity, json, migrate, newKey, registered, statusUpdate } from './helpers.ts';

beforeAll(migrate);

/** uAgents' AgentRegistrationAttestation as its batch policy makes one: `agent://` identifier, signed by the agent. */
function attestation(identity: Identity, url: string, timestamp = Math.floor(Date.now() / 1000)) {
  return signVerifiableModel(identity, {
    agent_identifier: `agent://${identity.address}`,
    protocols: [`proto:${'c'.repeat(64)}`],
    endpoints: [{ url, weight: 1 }],
    metadata: null,
    timestamp,
  });
}

describe('POST /v1/almanac/agents/batch (uAgents BatchAlmanacApiRegistrationPolicy)', () => {
  it('checks each attestation on its own and answers a result per item', async () => {
    const [a, b, c] = [freshIdentity(), freshIdentity(), freshIdentity()];
    const forged = {
      ...attestation(c, 'https://c.example.com/submit'),
      endpoints: [{ url: 'https://evil.example.com/submit', weight: 1 }],
    };
    const response = await api('/v1/almanac/agents/batch', {
      method: 'POST',
      json: {
        attestations: [attestation(a, 'https://a.example.com/submit'), forged, attestation(b, 'https://b.example.com/submit'), { nope: 1 }],
      },
    });
    expect(response.status).toBe(200);
    const body = await json<AlmanacBatchResponse>(response);
    expect(body).toMatchObject({ accepted: 2, refused: 2 });
    expect(body.results.map((result) => [result.index, result.accepted, result.status])).toEqual([
      [0, true, 200],
      [1, false, 401],
      [2, true, 200],
      [3, false, 406],
    ]);
    const record = await json<AlmanacRecord>(await api(`/v1/almanac/agents/${a.address}`));
    expect(record).toMatchObject({ endpoints: [{ url: 'https://a.example.com/submit', weight: 1 }], registered: false, type: 'uagent' });
    expect((await api(`/v1/almanac/agents/${c.address}`)).status).toBe(404);
  });

  it('a batch with nothing acceptable fails, with {detail} and every reason', async () => {
    const c = freshIdentity();
    const forged = { ...attestation(c, 'https://c.example.com/submit'), protocols: [] };
    const response = await api('/v1/almanac/agents/batch', { method: 'POST', json: { attestations: [forged] } });
    expect(response.status).toBe(401);
    const body = await json<AlmanacBatchResponse & { detail: string }>(response);
    expect(body.detail).toMatch(/no attestation accepted: signature/);
    expect(body.results).toHaveLength(1);
    expect((await api('/v1/almanac/agents/batch', { method: 'POST', json: { attestations: [] } })).status).toBe(406);
  });

  it('an attestation renews an expired registration; a status update marks the record inactive', async () => {
    const a = freshIdentity();
    await api('/v1/almanac/agents', { method: 'POST', json: attestation(a, 'https://a.example.com/submit') });
    expect((await api(`/v1/almanac/agents/${a.address}/status`, { method: 'POST', json: statusUpdate(a, false) })).status).toBe(200);
    expect(await json<AlmanacRecord>(await api(`/v1/almanac/agents/${a.address}`))).toMatchObject({ status: 'inactive' });
  });
});

describe('GET /v2/almanac/resolve/{identifier} (the Agentverse CLI’s resolve)', () => {
  it('resolves an address (with or without prefix), a listed handle with or without @; 404 for what nothing holds, 400 for no identifier', async () => {
    const key = await newKey(['read', 'write']);
    const agent = freshIdentity();
    const handle = `resolve${crypto.randomUUID().slice(0, 8)}`;
    await registered(agent, key.key, { handle });
    for (const identifier of [agent.address, `agent://${agent.address}`, `test-agent://${agent.address}`, handle, `@${handle}`]) {
      const response = await api(`/v2/almanac/resolve/${encodeURIComponent(identifier)}`);
      expect(response.status, identifier).toBe(200);
      expect(await json<AlmanacRecord>(response)).toMatchObject({ address: agent.address, status: 'active', type: 'custom' });
    }
    expect((await api(`/v2/almanac/resolve/agent://${agent.address}`)).status).toBe(200);
    expect((await api(`/v2/almanac/resolve/${freshIdentity().address}`)).status).toBe(404);
    expect((await api('/v2/almanac/resolve/nobody-holds-this')).status).toBe(404);
    expect((await api('/v2/almanac/resolve/weather.agent')).status).toBe(404);
    const malformed = await api('/v2/almanac/resolve/%E0%A4%A');
    expect(malformed.status).toBe(400);
    expect(await json(malformed)).toEqual({ detail: expect.stringMatching(/malformed identifier/) });
    expect((await api('/v2/almanac/resolve/not%20an%20identifier!')).status).toBe(400);
  });

  it('an unlisted agent’s handle does not resolve (the almanac by address still answers)', async () => {
    const key = await newKey(['read', 'write']);
    const agent = freshIdentity();
    const handle = `hidden${crypto.randomUUID().slice(0, 8)}`;
    await registered(agent, key.key, { handle });
    const unlisted = await api(`/v2/agents/${agent.address}`, { method: 'PATCH', token: key.key, json: { public: false } });
    expect(unlisted.status).toBe(200);
    expect((await api(`/v2/almanac/resolve/${handle}`)).status).toBe(404);
    expect((await api(`/v2/almanac/resolve/${agent.address}`)).status).toBe(200);
  });
});
