import { SELF } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Identity } from '../../lib/identity/index.ts';
import { MAX_QUESTION_CHARS } from '../../schemas/question.ts';
import { routerErrorSchema } from '../../schemas/router-api.ts';
import { installFakeNetwork, type FakeNetwork } from './helpers/fake-network.ts';

const specialist = Identity.fromSeed('router-test-specialist', 0);
const router = Identity.fromSeed('router-dev-seed', 0);

const send = (body: unknown) =>
  SELF.fetch('http://router.test/api/send-request', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

let network: FakeNetwork;
beforeEach(() => {
  network = installFakeNetwork(specialist.address);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('POST /api/send-request', () => {
  it('sends {request: input} to the first agent found, in a new session that is the request id', async () => {
    network.registered.push(specialist.address);
    const response = await send({ input: 'What did Apple earn in 2024?' });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { status: string; request_id: string };
    expect(body.status).toBe('request_sent');
    await vi.waitFor(() => expect(network.delivered).toHaveLength(1));
    const [delivery] = network.delivered;
    expect(delivery!.payload).toEqual({ request: 'What did Apple earn in 2024?' });
    expect(delivery!.envelope.session).toBe(body.request_id);
    expect(delivery!.envelope.sender).toBe(router.address);
    expect(network.searches[0]!.authorization).toBe('Bearer test-registry-key');
  });

  it('says in Server-Timing how long the registry search took (what bench:e2e reports as its hop)', async () => {
    network.registered.push(specialist.address);
    const response = await send({ input: 'What did Apple earn in 2024?' });
    expect(response.status).toBe(200);
    expect(response.headers.get('server-timing')).toMatch(/^registry-search;dur=\d+(\.\d+)?$/);
  });

  it('uses the client’s own request_id as the session, and a second request with it is a 409', async () => {
    network.registered.push(specialist.address);
    const requestId = crypto.randomUUID();
    const response = await send({ input: 'What did Apple earn in 2024?', request_id: requestId });
    expect(await response.json()).toEqual({ status: 'request_sent', request_id: requestId });
    await vi.waitFor(() => expect(network.delivered).toHaveLength(1));
    expect(network.delivered[0]!.envelope.session).toBe(requestId);
    const again = await send({ input: 'something else', request_id: requestId });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: expect.stringContaining(requestId), code: 'request_id_in_use', param: 'request_id' });
    expect(network.delivered).toHaveLength(1);
  });

  it('answers 404 when no specialist is registered, and sends nothing', async () => {
    const response = await send({ input: 'anything' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: expect.stringContaining('no specialist'), code: 'no_specialist', param: null });
    expect(network.delivered).toHaveLength(0);
  });

  it('skips the router itself when the search returns it first', async () => {
    network.registered.push(router.address, specialist.address);
    const response = await send({ input: 'revenue?' });
    expect(response.status).toBe(200);
    await vi.waitFor(() => expect(network.delivered).toHaveLength(1));
    expect(network.delivered[0]!.envelope.target).toBe(specialist.address);
  });

  it.each([
    ['missing input', {}],
    ['empty input', { input: '' }],
    ['whitespace input', { input: '   ' }],
    ['non-string input', { input: 42 }],
  ])('answers 400 for %s', async (_, body) => {
    network.registered.push(specialist.address);
    const response = await send(body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: expect.stringContaining('input'), param: 'input' });
    expect(network.searches).toHaveLength(0);
  });

  it('answers 413 for a body over 1 MiB before reading it whole, with or without Content-Length, and sends nothing', async () => {
    network.registered.push(specialist.address);
    const body = JSON.stringify({ input: 'x', padding: 'y'.repeat(1024 * 1024) });
    for (const sent of [body, new Blob([body]).stream()]) {
      const response = await SELF.fetch('http://router.test/api/send-request', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'cf-connecting-ip': `192.0.2.1-${crypto.randomUUID()}` },
        body: sent,
        duplex: 'half',
      } as RequestInit);
      expect(response.status).toBe(413);
      expect(routerErrorSchema.parse(await response.json())).toMatchObject({ code: 'request_too_large' });
    }
    expect(network.searches).toHaveLength(0);
  });

  it('answers 400 naming the limit for an input over 10 000 characters, and 200 for one at it', async () => {
    const tooLong = await send({ input: 'x'.repeat(MAX_QUESTION_CHARS + 1) });
    expect(tooLong.status).toBe(400);
    expect(routerErrorSchema.parse(await tooLong.json())).toMatchObject({
      error: 'input: input must be at most 10,000 characters',
      param: 'input',
    });
    expect(network.searches).toHaveLength(0);
    network.registered.push(specialist.address);
    expect((await send({ input: 'x'.repeat(MAX_QUESTION_CHARS) })).status).toBe(200);
    await vi.waitFor(() => expect(network.delivered).toHaveLength(1));
  });

  it('answers 400 for a body that is not JSON', async () => {
    const response = await SELF.fetch('http://router.test/api/send-request', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{nope',
    });
    expect(response.status).toBe(400);
  });

  it('answers 400 for an input that is not a string', async () => {
    network.registered.push(specialist.address);
    const notString = await send({ input: 5 });
    expect(notString.status).toBe(400);
    expect(await notString.json()).toEqual({
      error: 'input: input is required and must be a string',
      code: 'invalid_parameter',
      param: 'input',
    });
    expect(network.delivered).toHaveLength(0);
  });

  it('asks the registry again once when its search meets a passing failure', async () => {
    network.registered.push(specialist.address);
    network.searchOutages = 1;
    expect((await send({ input: 'revenue?' })).status).toBe(200);
    expect(network.searches).toHaveLength(2);
  });

  it('answers 500 with the reason when the registry keeps failing', async () => {
    network.registered.push(specialist.address);
    network.searchOutages = 2;
    const response = await send({ input: 'revenue?' });
    expect(response.status).toBe(500);
    const body = routerErrorSchema.parse(await response.json());
    expect(body).toMatchObject({ code: 'registry_unavailable', error: expect.stringContaining('registry') });
    // The registry's address and answer stay in the router's log: the caller may be anyone.
    expect(body.error).not.toContain('registry.test');
  });

  it('answers 500 with the reason when the registry refuses the search', async () => {
    network.registered.push(specialist.address);
    network.searchStatus = 401;
    const response = await send({ input: 'revenue?' });
    expect(response.status).toBe(500);
    const body = routerErrorSchema.parse(await response.json());
    expect(body.code).toBe('registry_unavailable');
    expect(body.error).not.toContain('401');
  });
});
