import { SELF } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SPECIALIST } from './helpers/conversation.ts';
import { installFakeNetwork } from './helpers/fake-network.ts';

// The router registers itself on its first request; give it a registry to talk to.
beforeEach(() => {
  installFakeNetwork(SPECIALIST.address);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const CLIENT = 'http://localhost:5174';

const preflight = (path: string, origin: string) =>
  SELF.fetch(`http://router.test${path}`, {
    method: 'OPTIONS',
    headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
  });

describe('CORS', () => {
  it('lets the client origin call /api/* (preflight and actual request)', async () => {
    const response = await preflight('/api/send-request', CLIENT);
    expect(response.status).toBe(204);
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe(CLIENT);
    expect(response.headers.get('Access-Control-Allow-Methods')).toContain('POST');
    expect(response.headers.get('Access-Control-Allow-Headers')?.toLowerCase()).toContain('content-type');
    const poll = await SELF.fetch('http://router.test/api/get-response', { headers: { Origin: CLIENT } });
    expect(poll.headers.get('Access-Control-Allow-Origin')).toBe(CLIENT);
  });

  it('grants the client origin on error answers too, so the client can read why', async () => {
    const bad = await SELF.fetch('http://router.test/api/get-response?request_id=not-a-uuid', { headers: { Origin: CLIENT } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('Access-Control-Allow-Origin')).toBe(CLIENT);
    expect(await bad.json()).toMatchObject({ error: expect.stringContaining('request_id'), param: 'request_id' });
  });

  it('gives any other origin no CORS grant', async () => {
    const response = await preflight('/api/send-request', 'http://evil.test');
    expect(response.headers.get('Access-Control-Allow-Origin')).toBeNull();
    const poll = await SELF.fetch('http://router.test/api/get-response', { headers: { Origin: 'http://evil.test' } });
    expect(poll.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });

  it('keeps /webhook out of CORS: agents are not browsers', async () => {
    const response = await preflight('/webhook', CLIENT);
    expect(response.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });
});
