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

describe('router /health', () => {
  it('names the worker and the address derived from PRIMARY_AGENT_KEY', async () => {
    const response = await SELF.fetch('http://router.test/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      name: 'router',
      address: 'agent1q0h3dj56kg3xdrdywt9975d6s686xyq6v7npuy5dwmxj9fmzgrjtspuxvhp',
    });
  });
});
