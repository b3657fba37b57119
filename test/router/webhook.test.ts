import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serializeEnvelope } from '../../lib/envelope/index.ts';
import { Identity } from '../../lib/identity/index.ts';
import { routerErrorSchema } from '../../schemas/router-api.ts';
import { analysis, ask, deliver, poll, postWebhook, reply, SPECIALIST } from './helpers/conversation.ts';
import { installFakeNetwork, type FakeNetwork } from './helpers/fake-network.ts';

let network: FakeNetwork;
beforeEach(() => {
  network = installFakeNetwork(SPECIALIST.address);
  network.registered.push(SPECIALIST.address);
});
afterEach(() => {
  vi.restoreAllMocks();
});

async function expectRefused(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(routerErrorSchema.parse(await response.json())).toMatchObject({ error: expect.any(String), code });
}

describe('POST /webhook', () => {
  it('files the answer of the agent the request went to, in the request session', async () => {
    const requestId = await ask(network);
    const response = await deliver(reply(requestId, analysis('Revenue was $391bn.')));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'success' });
    expect(await (await poll(requestId)).json()).toEqual(analysis('Revenue was $391bn.'));
  });

  it('refuses an answer signed by another agent, and keeps waiting for the real one', async () => {
    const requestId = await ask(network);
    const impostor = Identity.fromSeed('impostor', 0);
    await expectRefused(await deliver(reply(requestId, analysis('fake'), { sender: impostor })), 403, 'wrong_sender');
    expect(await (await poll(requestId)).json()).toEqual({ status: 'waiting' });
  });

  it('refuses a session the router never opened', async () => {
    await expectRefused(await deliver(reply(crypto.randomUUID(), analysis('unsolicited'))), 404, 'unknown_session');
  });

  it('refuses an envelope whose signature does not match its fields', async () => {
    const requestId = await ask(network);
    const envelope = reply(requestId, analysis('original'));
    const tampered = { ...envelope, payload: reply(requestId, analysis('tampered')).payload };
    await expectRefused(await deliver(tampered), 401, 'bad_signature');
    expect(await (await poll(requestId)).json()).toEqual({ status: 'waiting' });
  });

  it('refuses an envelope addressed to another agent', async () => {
    const requestId = await ask(network);
    await expectRefused(await deliver(reply(requestId, analysis('x'), { target: SPECIALIST.address })), 403, 'wrong_target');
  });

  it('refuses an expired envelope', async () => {
    const requestId = await ask(network);
    await expectRefused(await deliver(reply(requestId, analysis('x'), { expires: Math.floor(Date.now() / 1000) - 5 })), 400, 'expired');
  });

  it('refuses the same envelope a second time', async () => {
    const requestId = await ask(network);
    const envelope = reply(requestId, analysis('once'));
    expect((await deliver(envelope)).status).toBe(200);
    await expectRefused(await deliver(envelope), 409, 'replayed');
  });

  it('refuses a payload that is not an analysis result', async () => {
    const requestId = await ask(network);
    await expectRefused(await deliver(reply(requestId, { analysis_result: { analysis: 'not a list' } })), 400, 'unknown_schema');
    expect(await (await poll(requestId)).json()).toEqual({ status: 'waiting' });
  });

  it.each([
    ['a body that is not JSON', '{not json'],
    ['an object that is not an envelope', JSON.stringify({ sender: 'x' })],
    ['a session that is not a UUID', () => serializeEnvelope({ ...reply(crypto.randomUUID(), analysis('x')), session: 'nope' })],
  ])('answers 400 to %s', async (_, body) => {
    await expectRefused(await postWebhook(typeof body === 'function' ? body() : body), 400, 'malformed_envelope');
  });
});
