import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { addressOf, BASE, errorOf, post } from './helpers.ts';

describe('custom REST routes (spec §8)', () => {
  it('GET answers the handler’s object, in its response model', async () => {
    const response = await SELF.fetch(`${BASE}/alice/status`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ name: 'alice', address: await addressOf('alice') });
  });

  it('POST validates the body against the request model', async () => {
    const ok = await post('/alice/echo', { text: 'hello' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ text: 'hello', length: 5 });

    const missing = await post('/alice/echo', {});
    expect(missing.status).toBe(400);
    expect(errorOf(await missing.json())).toMatchObject({
      type: 'invalid_request_error',
      code: 'invalid_parameter',
      message: expect.stringContaining('text'),
    });
    const wrongType = await post('/alice/echo', { text: 5 });
    expect(wrongType.status).toBe(400);
    const notJson = await post('/alice/echo', '{"text":');
    expect(notJson.status).toBe(400);
    expect(errorOf(await notJson.json()).type).toBe('invalid_request_error');
  });

  it('a handler that breaks its own response model gives a 500 naming no internals, not the bad object', async () => {
    const response = await SELF.fetch(`${BASE}/alice/broken`);
    expect(response.status).toBe(500);
    expect(errorOf(await response.json())).toMatchObject({ type: 'server_error', code: 'invalid_response' });
  });

  it('routes are the agent’s own: bob has none of alice’s', async () => {
    const response = await SELF.fetch(`${BASE}/bob/status`);
    expect(response.status).toBe(404);
    expect(errorOf(await response.json()).type).toBe('not_found');
  });
});
