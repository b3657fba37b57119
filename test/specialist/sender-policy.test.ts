import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Identity } from '../../lib/identity/index.ts';
import { requestEnvelope, send } from './helpers/envelopes.ts';
import { almanacRecord, installFakeNetwork, type FakeNetwork } from './helpers/fake-network.ts';

let network: FakeNetwork;
beforeEach(() => {
  network = installFakeNetwork();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const question = { request: 'What was Apple revenue in 2024?' };
const stranger = () => Identity.fromSeed(`stranger ${crypto.randomUUID()}`, 0);

describe('the specialist works only for agents registered under an account', () => {
  it('refuses an identity the registry does not know: 403 {status: error, message}, nothing analysed', async () => {
    const sender = stranger();
    const envelope = requestEnvelope(question, { sender });
    const response = await send(envelope);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ status: 'error', message: 'sender is not an agent registered under an account' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(network.chatCalls).toHaveLength(0);
    expect(network.edgarRequests).toHaveLength(0);
    expect(network.delivered).toHaveLength(0);
  });

  it('refuses an agent known only from an almanac attestation (no account)', async () => {
    const sender = stranger();
    network.almanac.set(sender.address, almanacRecord(sender.address, false));
    const response = await send(requestEnvelope(question, { sender }));
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ status: 'error' });
  });

  it('serves another registered agent, and looks each sender up once while the answer is fresh', async () => {
    const sender = stranger();
    network.almanac.set(sender.address, almanacRecord(sender.address));
    for (let i = 0; i < 3; i++) {
      const response = await send(requestEnvelope({ request: '' }, { sender }));
      expect(response.status).toBe(400);
    }
    expect(network.almanacLookups.filter((address) => address === sender.address)).toHaveLength(1);
  });

  it('looks a sender up once for a burst of its messages arriving together', async () => {
    const sender = stranger();
    network.almanac.set(sender.address, almanacRecord(sender.address));
    network.almanacDelayMs = 300;
    const responses = await Promise.all(Array.from({ length: 8 }, () => send(requestEnvelope({ request: '' }, { sender }))));
    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(400));
    expect(network.almanacLookups.filter((address) => address === sender.address)).toHaveLength(1);
  });

  it('answers 503 (the sender retries) when the registry cannot be asked, without internals', async () => {
    const sender = stranger();
    network.almanac.set(sender.address, { ...almanacRecord(sender.address), registered: 'maybe' as unknown as boolean });
    const response = await send(requestEnvelope(question, { sender }));
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBeTruthy();
    expect(await response.json()).toEqual({ status: 'error', message: 'the sender could not be checked; send again later' });
  });
});

describe('the specialist limits each sender', () => {
  it('answers 429 with retry-after once a sender exceeds its per-minute budget; other senders go on', async () => {
    const limit = Number(env.SENDER_REQUESTS_PER_MINUTE);
    expect(limit).toBeGreaterThan(0);
    const sender = stranger();
    network.almanac.set(sender.address, almanacRecord(sender.address));
    for (let i = 0; i < limit; i++) expect((await send(requestEnvelope({ request: '' }, { sender }))).status).toBe(400);
    const refused = await send(requestEnvelope({ request: '' }, { sender }));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ status: 'error', message: 'too many requests from this sender; send again later' });

    const other = stranger();
    network.almanac.set(other.address, almanacRecord(other.address));
    expect((await send(requestEnvelope({ request: '' }, { sender: other }))).status).toBe(400);
  }, 30_000);
});

describe('SENDER_BUDGETS: a sender that asks for many users', () => {
  // Listed in the project's SENDER_BUDGETS (vitest.config.ts) with 50 a minute; the default is 40.
  const router = Identity.fromSeed('budget test router', 0);

  it('gets its own budget, and is still refused beyond it', async () => {
    expect(env.SENDER_BUDGETS).toContain(`${router.address}:50`);
    network.almanac.set(router.address, almanacRecord(router.address));
    for (let i = 0; i < 50; i++) expect((await send(requestEnvelope({ request: '' }, { sender: router }))).status).toBe(400);
    const refused = await send(requestEnvelope({ request: '' }, { sender: router }));
    expect(refused.status).toBe(429);
  }, 30_000);
});
