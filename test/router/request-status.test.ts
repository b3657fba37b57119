import { SELF } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { requestStatusSchema } from '../../schemas/router-api.ts';
import { analysis, ask, deliver, reply, SPECIALIST } from './helpers/conversation.ts';
import { installFakeNetwork, type FakeNetwork } from './helpers/fake-network.ts';

let network: FakeNetwork;
beforeEach(() => {
  network = installFakeNetwork(SPECIALIST.address);
  network.registered.push(SPECIALIST.address);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const status = (requestId: string) => SELF.fetch(`http://router.test/api/requests/${requestId}`);

describe('GET /api/requests/{request_id}', () => {
  it('tells where a request stands: sent and delivered to the specialist, then answered', async () => {
    const requestId = await ask(network);
    const waiting = requestStatusSchema.parse(await (await status(requestId)).json());
    expect(waiting).toMatchObject({ request_id: requestId, state: 'waiting', specialist: SPECIALIST.address, answered_at: null });
    await vi.waitFor(async () => expect(requestStatusSchema.parse(await (await status(requestId)).json()).delivered_at).not.toBeNull());

    await deliver(reply(requestId, analysis('done')));
    const answered = requestStatusSchema.parse(await (await status(requestId)).json());
    expect(answered.state).toBe('answered');
    expect(Date.parse(answered.answered_at!)).toBeGreaterThanOrEqual(Date.parse(answered.sent_at));
    expect(Date.parse(answered.expires_at)).toBeGreaterThan(Date.parse(answered.sent_at));
  });

  it('answers 404 for an unknown request and 400 for a malformed id', async () => {
    expect((await status(crypto.randomUUID())).status).toBe(404);
    expect((await status('nope')).status).toBe(400);
  });
});
