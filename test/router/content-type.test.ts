import { SELF } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routerErrorSchema } from '../../schemas/router-api.ts';
import { expectSameRefusalWhateverTheLabel, REFUSED_BODIES, withContentType } from '../support/content-types.ts';
import { SPECIALIST } from './helpers/conversation.ts';
import { installFakeNetwork, type FakeNetwork } from './helpers/fake-network.ts';

let network: FakeNetwork;
beforeEach(() => {
  network = installFakeNetwork(SPECIALIST.address);
});
afterEach(() => {
  vi.restoreAllMocks();
});

// Bytes, not a string: fetch would label a string body text/plain by itself. Each call from a client of its
// own, so send-request's per-client limit does not answer in place of the body check.
const sender = (path: string) => (body: string, contentType: string | null) =>
  SELF.fetch(`http://router.test${path}`, {
    method: 'POST',
    headers: withContentType(contentType, { 'cf-connecting-ip': `198.51.100.${Math.floor(Math.random() * 250)}-${crypto.randomUUID()}` }),
    body: new TextEncoder().encode(body),
  });

/** The router's JSON endpoints read their bodies whatever the Content-Type says (issue 13: they were ignored). */
describe('router: a JSON body is read whatever its Content-Type', () => {
  it.each(['/api/send-request', '/webhook'])('%s refuses a bad body the same with a wrong or missing label', async (path) => {
    for (const body of [...REFUSED_BODIES, JSON.stringify({ input: 42 })]) {
      await expectSameRefusalWhateverTheLabel(sender(path), body, `${path} ${body}`);
    }
    expect(network.delivered).toHaveLength(0);
  });

  it('a body that is not JSON is a 400 in the spec’s shape', async () => {
    const response = await sender('/api/send-request')('{not json', 'text/plain');
    expect(response.status).toBe(400);
    expect(routerErrorSchema.parse(await response.json())).toMatchObject({ error: expect.any(String) });
  });

  it('a good question without the label is sent', async () => {
    network.registered.push(SPECIALIST.address);
    for (const contentType of [null, 'text/plain', 'application/x-www-form-urlencoded']) {
      const response = await sender('/api/send-request')(JSON.stringify({ input: 'What did Apple earn in 2024?' }), contentType);
      expect(response.status, `Content-Type ${contentType ?? '(none)'}`).toBe(200);
      expect(await response.json()).toMatchObject({ status: 'request_sent' });
    }
  });
});
