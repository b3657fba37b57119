import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildEnvelope, serializeEnvelope } from '../../lib/envelope/index.ts';
import type { Identity } from '../../lib/identity/index.ts';
import { createAttestation } from '../../lib/registry-client/attestation.ts';
import { type MailboxStatus, MAILBOX_SUBMIT_PATH, type StoredEnvelope } from '../../schemas/mailbox.ts';
import type { AlmanacRecord } from '../../schemas/registry.ts';
import { api, BASE, freshIdentity, json, migrate, newKey, registered } from './helpers.ts';

beforeAll(migrate);

const MAILBOX_ENDPOINT = `${BASE}${MAILBOX_SUBMIT_PATH}`;

/** A mailbox agent as uAgents' register_in_agentverse registers one: no url, the mailbox as its only endpoint. */
async function mailboxAgent(token?: string) {
  const owner = token ?? (await newKey(['read', 'write'])).key;
  const agent = freshIdentity();
  const response = await registered(agent, owner, { url: null, endpoints: [{ url: MAILBOX_ENDPOINT, weight: 1 }] });
  expect(response.status).toBe(200);
  return { agent, owner };
}

function envelopeText(sender: Identity, target: string, payload: unknown = { text: 'hello' }, extra: { expires?: number } = {}) {
  return serializeEnvelope(buildEnvelope({ sender, target, schemaDigest: `model:${'a'.repeat(64)}`, payload, ...extra }));
}

const submit = (body: string) => api(MAILBOX_SUBMIT_PATH, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
const asAgent = (identity: Identity, validSeconds = 1000, nowSeconds?: number) => ({
  authorization: `Agent ${createAttestation(identity, validSeconds, nowSeconds)}`,
});
const inbox = (address: string, headers: HeadersInit, query = '') => api(`/v2/agents/${address}/mailbox${query}`, { headers });

describe('the mailbox: submit, poll oldest first, delete (as uAgents MailboxClient does)', { timeout: 60_000 }, () => {
  it('stores a signed envelope before 200, lists StoredEnvelopes oldest first and paged, deletes by uuid', async () => {
    const { agent } = await mailboxAgent();
    const sender = freshIdentity();
    const sent: string[] = [];
    for (const text of ['one', 'two', 'three']) {
      const body = envelopeText(sender, agent.address, { text });
      const response = await submit(body);
      expect(response.status, await response.clone().text()).toBe(200);
      const stored = await json<{ uuid: string; target: string; expires_at: string }>(response);
      expect(stored.target).toBe(agent.address);
      sent.push(stored.uuid);
    }
    const all = await inbox(agent.address, asAgent(agent));
    expect(all.status).toBe(200);
    const listed = await json<StoredEnvelope[]>(all);
    expect(listed.map((item) => item.uuid)).toEqual(sent);
    expect(listed[0]!.envelope).toMatchObject({ sender: sender.address, target: agent.address });
    expect(Date.parse(listed[0]!.expires_at) - Date.parse(listed[0]!.received_at)).toBe(7 * 24 * 60 * 60 * 1000);
    const page = await json<StoredEnvelope[]>(await inbox(agent.address, asAgent(agent), '?limit=1&offset=1'));
    expect(page.map((item) => item.uuid)).toEqual([sent[1]]);

    const attestation = asAgent(agent);
    for (const uuid of sent) {
      const deleted = await api(`/v2/agents/${agent.address}/mailbox/${uuid}`, { method: 'DELETE', headers: attestation });
      expect(deleted.status).toBe(200);
    }
    expect(await json(await inbox(agent.address, attestation))).toEqual([]);
    // A second delete of the same uuid: nothing there any more.
    expect((await api(`/v2/agents/${agent.address}/mailbox/${sent[0]}`, { method: 'DELETE', headers: attestation })).status).toBe(404);
  });

  it('keeps the envelope exactly as signed, its expiry bounding how long it waits; the same envelope twice is stored once', async () => {
    const { agent } = await mailboxAgent();
    const expires = Math.floor(Date.now() / 1000) + 120;
    const body = envelopeText(freshIdentity(), agent.address, { n: 1 }, { expires });
    const first = await json<{ uuid: string; expires_at: string }>(await submit(body));
    expect(first.expires_at).toBe(new Date(expires * 1000).toISOString());
    const again = await json<{ uuid: string }>(await submit(body));
    expect(again.uuid).toBe(first.uuid);
    const listed = await json<StoredEnvelope[]>(await inbox(agent.address, asAgent(agent)));
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed[0]!.envelope)).toBe(body);
  });

  it('refuses what it cannot store, with {detail}: unknown or non-mailbox target, bad signature, expired, malformed, too large', async () => {
    const { agent } = await mailboxAgent();
    const sender = freshIdentity();
    const expectRefused = async (response: Response, status: number, detail: RegExp) => {
      expect(response.status).toBe(status);
      expect((await json<{ detail: string }>(response)).detail).toMatch(detail);
    };
    await expectRefused(await submit(envelopeText(sender, freshIdentity().address)), 404, /has no mailbox here/);
    const key = await newKey(['read', 'write']);
    const webhookAgent = freshIdentity();
    await registered(webhookAgent, key.key);
    await expectRefused(await submit(envelopeText(sender, webhookAgent.address)), 404, /has no mailbox here/);
    const forged = JSON.parse(envelopeText(sender, agent.address)) as Record<string, unknown>;
    forged.payload = btoa('{"text":"changed"}');
    await expectRefused(await submit(JSON.stringify(forged)), 401, /signature/);
    await expectRefused(
      await submit(envelopeText(sender, agent.address, {}, { expires: Math.floor(Date.now() / 1000) - 5 })),
      401,
      /expired/,
    );
    await expectRefused(await submit('{"version":1}'), 406, /malformed envelope/);
    await expectRefused(await submit(envelopeText(sender, agent.address, { blob: 'x'.repeat(1024 * 1024) })), 413, /larger than/);
    expect(await json(await inbox(agent.address, asAgent(agent)))).toEqual([]);
  });

  it('a full inbox refuses the next envelope with 507 and keeps every one it holds', async () => {
    const { agent } = await mailboxAgent();
    const sender = freshIdentity();
    const blob = 'y'.repeat(700 * 1024);
    let stored = 0;
    let refused: Response | null = null;
    for (let i = 0; i < 40 && !refused; i++) {
      const response = await submit(envelopeText(sender, agent.address, { i, blob }));
      if (response.status === 200) stored++;
      else refused = response;
    }
    expect(refused?.status).toBe(507);
    expect((await json<{ detail: string }>(refused!)).detail).toMatch(/inbox of .* is full \(16777216 bytes\)/);
    const status = await json<MailboxStatus>(await api(`/v2/agents/${agent.address}/mailbox/status`, { headers: asAgent(agent) }));
    expect(status.pending).toBe(stored);
    expect(status.bytes).toBeLessThanOrEqual(status.limits.max_bytes);
    const listed = await json<StoredEnvelope[]>(await inbox(agent.address, asAgent(agent)));
    expect(listed).toHaveLength(stored);
  });
});

describe('who may open an inbox', { timeout: 60_000 }, () => {
  it('its agent (attestation) and its owner’s key; nobody else, and a refusal tells nothing of the inbox', async () => {
    const { agent, owner } = await mailboxAgent();
    const { agent: neighbour } = await mailboxAgent();
    const sender = freshIdentity();
    const mine = await json<{ uuid: string }>(await submit(envelopeText(sender, agent.address)));
    const theirs = await json<{ uuid: string }>(await submit(envelopeText(sender, neighbour.address)));

    const refusal = async (headers: HeadersInit, status: number) => {
      const response = await inbox(agent.address, headers);
      expect(response.status).toBe(status);
      const body = await json<{ detail: string }>(response);
      expect(JSON.stringify(body)).not.toContain(mine.uuid);
    };
    await refusal({}, 401);
    await refusal(asAgent(neighbour), 403);
    const now = Math.floor(Date.now() / 1000);
    await refusal(asAgent(agent, 60, now - 3600), 401);
    await refusal(asAgent(agent, 60, now + 3600), 401);
    await refusal(asAgent(agent, 3 * 24 * 3600), 401);
    const [prefix, payload, signature] = createAttestation(agent, 1000).split(':');
    const otherSignature = createAttestation(neighbour, 1000).split(':')[2];
    await refusal({ authorization: `Agent ${prefix}:${payload}:${otherSignature}` }, 401);
    expect(signature).not.toBe(otherSignature);
    await refusal({ authorization: `Bearer ${(await newKey(['read', 'write'])).key}` }, 403);
    await refusal({ authorization: 'Bearer rdv_0000000000000000_not-a-key' }, 401);

    // A uuid of another inbox: not in this one (the same answer as a uuid that never was), and it stays where it is.
    const cross = await api(`/v2/agents/${agent.address}/mailbox/${theirs.uuid}`, { method: 'DELETE', headers: asAgent(agent) });
    expect(cross.status).toBe(404);
    expect((await json<StoredEnvelope[]>(await inbox(neighbour.address, asAgent(neighbour)))).map((item) => item.uuid)).toEqual([
      theirs.uuid,
    ]);
    // The stranger cannot delete from this inbox either.
    expect((await api(`/v2/agents/${agent.address}/mailbox/${mine.uuid}`, { method: 'DELETE', headers: asAgent(neighbour) })).status).toBe(
      403,
    );

    // The owner's key reads the inbox and its status, and empties it (the explorer).
    const ownerHeaders = { authorization: `Bearer ${owner}` };
    expect((await json<StoredEnvelope[]>(await inbox(agent.address, ownerHeaders))).map((item) => item.uuid)).toEqual([mine.uuid]);
    const status = await json<MailboxStatus>(await api(`/v2/agents/${agent.address}/mailbox/status`, { headers: ownerHeaders }));
    expect(status).toMatchObject({ address: agent.address, pending: 1, limits: { max_envelopes: 1000, retention_seconds: 604800 } });
    expect(status.oldest_received_at).toEqual(expect.any(String));
    expect((await api(`/v2/agents/${agent.address}/mailbox/${mine.uuid}`, { method: 'DELETE', headers: ownerHeaders })).status).toBe(200);
    expect(await json(await inbox(agent.address, ownerHeaders))).toEqual([]);
  });

  it('an agent without a mailbox here gets 404 when it polls (uAgents logs "mailbox not found")', async () => {
    const key = await newKey(['read', 'write']);
    const webhookAgent = freshIdentity();
    await registered(webhookAgent, key.key);
    const response = await inbox(webhookAgent.address, asAgent(webhookAgent));
    expect(response.status).toBe(404);
    expect((await json<{ detail: string }>(response)).detail).toMatch(/no mailbox here/);
  });

  it('answers HEAD on the submit endpoint (the Agentverse CLI’s connectivity check)', async () => {
    expect((await api(MAILBOX_SUBMIT_PATH, { method: 'HEAD' })).status).toBe(200);
  });
});

describe('the almanac record of a mailbox agent', () => {
  it('carries type mailbox, status in uAgents’ set, expiry and domain_name; an expired one resolves to no endpoint', async () => {
    const { agent } = await mailboxAgent();
    const record = await json<AlmanacRecord>(await api(`/v1/almanac/agents/${agent.address}`));
    expect(record).toMatchObject({
      type: 'mailbox',
      status: 'active',
      domain_name: null,
      endpoints: [{ url: MAILBOX_ENDPOINT, weight: 1 }],
    });
    const remaining = Date.parse(record.expiry) - Date.now();
    expect(remaining).toBeGreaterThan(47 * 3600 * 1000);
    expect(remaining).toBeLessThanOrEqual(48 * 3600 * 1000);

    await env.DB.prepare('UPDATE agents SET registration_expires_at = ? WHERE address = ?')
      .bind(new Date(Date.now() - 1000).toISOString(), agent.address)
      .run();
    const expired = await json<AlmanacRecord>(await api(`/v1/almanac/agents/${agent.address}`));
    expect(expired).toMatchObject({ status: 'offline', endpoints: [], url: null, type: 'mailbox' });
    expect(Date.parse(expired.expiry)).toBeLessThan(Date.now());
  });
});
