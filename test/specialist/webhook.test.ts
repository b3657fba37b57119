import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serializeEnvelope } from '../../lib/envelope/index.ts';
import { Identity } from '../../lib/identity/index.ts';
import { postWebhook, requestEnvelope, send } from './helpers/envelopes.ts';
import { installFakeNetwork, type FakeNetwork } from './helpers/fake-network.ts';

let network: FakeNetwork;
beforeEach(() => {
  network = installFakeNetwork();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('specialist POST /webhook', () => {
  it('acknowledges a question at once with 200 {status: analysis_sent}', async () => {
    const response = await send(requestEnvelope({ request: "How did Apple's revenue change over the last three fiscal years?" }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'analysis_sent' });
  });

  it.each([
    ['no request key', {}],
    ['an empty request', { request: '' }],
    ['a blank request', { request: '   \n ' }],
    ['a request that is not a string', { request: 42 }],
    ['a null request', { request: null }],
  ])('answers 400 {status: error, message: No query provided} for %s', async (_, payload) => {
    const response = await send(requestEnvelope(payload));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ status: 'error', message: 'No query provided' });
  });

  it.each([10_001, 200_000])('answers 400 {status: error} naming the limit for a request of %i characters, never a 500', async (length) => {
    const response = await send(requestEnvelope({ request: `Apple revenue ${'x'.repeat(length - 14)}` }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ status: 'error', message: 'the request is longer than 10,000 characters' });
  });

  it('analyses nothing and sends nothing for a refused question', async () => {
    const refused = requestEnvelope({ request: '' });
    const accepted = requestEnvelope({ request: 'What was NVIDIA revenue in fiscal 2025?' });
    await send(refused);
    await send(accepted);
    // The accepted question's answer arrives; by then the refused one would have been answered too.
    await vi.waitFor(() => expect(network.delivered.some((d) => d.envelope.session === accepted.session)).toBe(true), { timeout: 10_000 });
    expect(network.delivered.filter((d) => d.envelope.session === refused.session)).toHaveLength(0);
  });

  it('answers 500 {status: error, message} when the question cannot be queued', async () => {
    vi.spyOn(env.ANALYSIS_QUEUE, 'send').mockRejectedValueOnce(new Error('queue unavailable'));
    const response = await send(requestEnvelope({ request: 'What was Apple revenue in 2024?' }));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ status: 'error', message: 'the analysis could not be queued' });
  });
});

describe('specialist POST /webhook refuses envelopes it cannot trust', () => {
  const question = { request: 'What was Apple revenue in 2024?' };

  it('a body that is not an envelope: 400 malformed_envelope', async () => {
    const response = await postWebhook('{"request": "no envelope"}');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'malformed_envelope' } });
  });

  it('an envelope whose signature does not match its sender: 401 bad_signature', async () => {
    const envelope = requestEnvelope(question);
    const forged = { ...envelope, sender: Identity.fromSeed('someone else', 0).address };
    const response = await postWebhook(serializeEnvelope(forged));
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'bad_signature' } });
  });

  it('an envelope addressed to another agent: 403 wrong_target', async () => {
    const response = await send(requestEnvelope(question, { target: Identity.fromSeed('another agent', 0).address }));
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: 'wrong_target' } });
  });

  it('an expired envelope: 400 expired', async () => {
    const response = await send(requestEnvelope(question, { expires: Math.floor(Date.now() / 1000) - 10 }));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'expired' } });
  });

  it('the same envelope twice: the second is 409 replayed', async () => {
    const envelope = requestEnvelope(question);
    expect((await send(envelope)).status).toBe(200);
    const again = await send(envelope);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { code: 'replayed' } });
  });

  it('a refused question can be sent again once corrected (its envelope is not burnt)', async () => {
    const envelope = requestEnvelope({ request: '' });
    expect((await send(envelope)).status).toBe(400);
    expect((await send(envelope)).status).toBe(400);
  });
});
