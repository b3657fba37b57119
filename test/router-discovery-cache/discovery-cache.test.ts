import { SELF } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Identity } from '../../lib/identity/index.ts';
import { requestSentSchema, requestStatusSchema } from '../../schemas/router-api.ts';
import { SPECIALIST } from '../router/helpers/conversation.ts';
import { DEAD_WEBHOOK, installFakeNetwork, type FakeNetwork } from '../router/helpers/fake-network.ts';

/**
 * The router as deployed, with DISCOVERY_CACHE_SECONDS on (the `router` project turns it off to see every
 * search). The tests run in order in one isolate: the second one reads what the first one cached.
 */
const send = (client = crypto.randomUUID()) =>
  SELF.fetch('http://router.test/api/send-request', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': client },
    body: JSON.stringify({ input: 'What did Apple earn?' }),
  });

const status = async (requestId: string) =>
  requestStatusSchema.parse(await (await SELF.fetch(`http://router.test/api/requests/${requestId}`)).json());

let network: FakeNetwork;
beforeEach(() => {
  network = installFakeNetwork(SPECIALIST.address);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the router shares one registry answer among its users (DISCOVERY_CACHE_SECONDS)', () => {
  // Both own agents; the dead one ranks first (active before local) until it fails to take a request.
  const dead = Identity.fromSeed(`dead own agent ${crypto.randomUUID()}`, 0);

  it('20 users asking at once cause one registry search; each request reaches the live specialist', async () => {
    network.webhooks.set(dead.address, DEAD_WEBHOOK);
    network.statuses.set(dead.address, 'active');
    network.registered.push(dead.address, SPECIALIST.address);
    const responses = await Promise.all(Array.from({ length: 20 }, () => send()));
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(200));
    expect(network.searches).toHaveLength(1);
    for (const response of responses) {
      const request = await status(requestSentSchema.parse(await response.json()).request_id);
      expect(request.specialist).toBe(SPECIALIST.address);
      expect(request.passed_over.every((entry) => entry.agent === dead.address)).toBe(true);
    }
  });

  it('while the answer is fresh: no search, and the agent that failed is no longer tried first', async () => {
    network.webhooks.set(dead.address, DEAD_WEBHOOK);
    network.statuses.set(dead.address, 'active');
    network.registered.push(dead.address, SPECIALIST.address);
    const response = await send();
    expect(response.status).toBe(200);
    const request = await status(requestSentSchema.parse(await response.json()).request_id);
    expect(request).toMatchObject({ specialist: SPECIALIST.address, passed_over: [] });
    expect(network.searches).toHaveLength(0);
  });
});
