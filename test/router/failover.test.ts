import { SELF } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Identity } from '../../lib/identity/index.ts';
import { requestSentSchema, requestStatusSchema, routerErrorSchema } from '../../schemas/router-api.ts';
import { analysis, deliver, poll, reply, ROUTER, SPECIALIST } from './helpers/conversation.ts';
import { DEAD_WEBHOOK, installFakeNetwork, LOOKALIKE_WEBHOOK, type FakeNetwork } from './helpers/fake-network.ts';

const send = (input: string, client = crypto.randomUUID()) =>
  SELF.fetch('http://router.test/api/send-request', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': client },
    body: JSON.stringify({ input }),
  });

const status = async (requestId: string) =>
  requestStatusSchema.parse(await (await SELF.fetch(`http://router.test/api/requests/${requestId}`)).json());

/** Own agents with dead webhooks (a laptop gone home), each new per test so the router's memory of failures starts empty. */
function deadDecoys(network: FakeNetwork, count: number): Identity[] {
  return Array.from({ length: count }, () => {
    const decoy = Identity.fromSeed(`dead decoy ${crypto.randomUUID()}`, 0);
    network.webhooks.set(decoy.address, DEAD_WEBHOOK);
    return decoy;
  });
}

let network: FakeNetwork;
beforeEach(() => {
  network = installFakeNetwork(SPECIALIST.address);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('failover: decoys with dead webhooks outrank the specialist', () => {
  it('the request reaches the specialist in the same session, the answer is filed, and the status names who was passed over and why', async () => {
    const decoys = deadDecoys(network, 2);
    network.registered.push(...decoys.map((decoy) => decoy.address), SPECIALIST.address);
    const response = await send('What did Apple earn?');
    expect(response.status).toBe(200);
    const { request_id: requestId } = requestSentSchema.parse(await response.json());
    expect(network.delivered.map((entry) => entry.envelope.session)).toEqual([requestId]);

    const progress = await status(requestId);
    expect(progress.specialist).toBe(SPECIALIST.address);
    expect(progress.passed_over.map((entry) => [entry.agent, entry.reason])).toEqual(decoys.map((decoy) => [decoy.address, 'no_answer']));
    expect(JSON.stringify(progress)).not.toContain('127.0.0.1');
    expect(progress.delivered_at).not.toBeNull();

    // A passed-over agent's answer is refused; the specialist's is filed.
    expect((await deliver(reply(requestId, analysis('forged'), { sender: decoys[0]! }))).status).toBe(403);
    expect((await deliver(reply(requestId, analysis('Apple earned a lot.')))).status).toBe(200);
    expect(await (await poll(requestId)).json()).toEqual(analysis('Apple earned a lot.'));
  });

  it('remembers a failing agent for a while: the next request goes to the specialist first', async () => {
    const decoys = deadDecoys(network, 2);
    network.registered.push(...decoys.map((decoy) => decoy.address), SPECIALIST.address);
    expect((await send('first')).status).toBe(200);
    const { request_id: second } = requestSentSchema.parse(await (await send('second')).json());
    expect((await status(second)).passed_over).toEqual([]);
  });

  it('ranks reachable agents and agents that declare the request payload first, whatever the search order', async () => {
    const [offline, undeclared] = deadDecoys(network, 2).map((decoy) => decoy.address);
    network.statuses.set(offline!, 'offline');
    network.withoutPayload.add(undeclared!);
    network.registered.push(offline!, undeclared!, SPECIALIST.address);
    const { request_id: requestId } = requestSentSchema.parse(await (await send('revenue?')).json());
    expect((await status(requestId)).passed_over).toEqual([]);
    expect(network.delivered.map((entry) => entry.envelope.target)).toEqual([SPECIALIST.address]);
  });

  it('with only dead agents: a 502 at once naming each agent tried and why, at most five of them', async () => {
    const decoys = deadDecoys(network, 6);
    network.registered.push(...decoys.map((decoy) => decoy.address));
    const started = Date.now();
    const response = await send('anyone there?');
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(response.status).toBe(502);
    const body = routerErrorSchema.parse(await response.json());
    expect(body.code).toBe('undeliverable');
    for (const decoy of decoys.slice(0, 5)) expect(body.error).toContain(`${decoy.address} (no_answer)`);
    expect(body.error).not.toContain(decoys[5]!.address);
    expect(body.error).not.toContain('127.0.0.1');
  });
});

describe('trust: only the operator’s own agents (or TRUSTED_AGENTS) get users’ questions', () => {
  it('a tenant’s lookalike that outranks the specialist is never chosen, and its answer is refused', async () => {
    const lookalike = Identity.fromSeed(`lookalike ${crypto.randomUUID()}`, 0);
    network.tenants.add(lookalike.address);
    network.webhooks.set(lookalike.address, LOOKALIKE_WEBHOOK);
    network.statuses.set(lookalike.address, 'active');
    network.registered.push(lookalike.address, SPECIALIST.address);
    const ids = [];
    for (let index = 0; index < 3; index++) ids.push(requestSentSchema.parse(await (await send(`question ${index}`)).json()).request_id);
    expect(network.lookalikeInbox).toEqual([]);
    expect(network.delivered.map((entry) => entry.envelope.target)).toEqual([SPECIALIST.address, SPECIALIST.address, SPECIALIST.address]);
    expect((await deliver(reply(ids[0]!, analysis('buy my coin'), { sender: lookalike }))).status).toBe(403);
    expect(await (await poll(ids[0]!)).json()).toEqual({ status: 'waiting' });
  });

  it('with only other tenants’ agents found: 404 saying none is trusted, and nothing is sent', async () => {
    const lookalike = Identity.fromSeed(`lookalike ${crypto.randomUUID()}`, 0);
    network.tenants.add(lookalike.address);
    network.webhooks.set(lookalike.address, LOOKALIKE_WEBHOOK);
    network.registered.push(lookalike.address);
    const response = await send('revenue?');
    expect(response.status).toBe(404);
    expect(routerErrorSchema.parse(await response.json())).toMatchObject({
      code: 'no_specialist',
      error: expect.stringContaining('trust'),
    });
    expect(network.lookalikeInbox).toEqual([]);
  });

  it('the router never sends to itself', async () => {
    network.registered.push(ROUTER.address, SPECIALIST.address);
    expect((await send('revenue?')).status).toBe(200);
    expect(network.delivered.map((entry) => entry.envelope.target)).toEqual([SPECIALIST.address]);
  });
});

describe('send-request limits', () => {
  it('refuses a client past its questions per minute with 429 and retry-after; other clients go on', async () => {
    network.registered.push(SPECIALIST.address);
    const client = `client-${crypto.randomUUID()}`;
    const statuses = [];
    for (let index = 0; index < 31; index++) statuses.push((await send(`q${index}`, client)).status);
    expect(statuses.slice(0, 30).every((code) => code === 200)).toBe(true);
    const refused = await send('one more', client);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(routerErrorSchema.parse(await refused.json()).code).toBe('rate_limited');
    expect((await send('another client')).status).toBe(200);
  });

  it('caps input length', async () => {
    network.registered.push(SPECIALIST.address);
    const response = await send('x'.repeat(10_001));
    expect(response.status).toBe(400);
    expect(routerErrorSchema.parse(await response.json()).param).toBe('input');
    expect(network.delivered).toEqual([]);
  });
});
