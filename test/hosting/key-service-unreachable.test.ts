import { createExecutionContext, env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../workers/hosting/src/index.ts';

describe('an unreachable key service', () => {
  it('is 503 with retry-after, as in every Worker (its {detail} dialect carries no code)', async () => {
    const registry = { authenticate: () => Promise.reject(new Error('registry down')) };
    const request = new Request('http://hosting.test/v1/hosting/agents', {
      headers: { authorization: `Bearer rdv_0123456789abcdef_${'s'.repeat(43)}` },
    });
    const response = await worker.fetch(request, { ...env, REGISTRY: registry } as unknown as typeof env, createExecutionContext());
    expect(response.status).toBe(503);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await response.json()).toEqual({ detail: 'the key service is unreachable; try again shortly' });
  });
});
