import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';

describe('registry /health', () => {
  it('names the worker and its version', async () => {
    const response = await SELF.fetch('http://registry.test/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok', name: 'registry', version: expect.any(String) });
  });

  it('answers an unknown route with a JSON 404', async () => {
    const response = await SELF.fetch('http://registry.test/nope');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { type: 'not_found' } });
  });
});
