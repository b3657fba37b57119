import { SELF } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installFakeNetwork } from './helpers/fake-network.ts';

beforeEach(() => {
  installFakeNetwork();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('specialist /health', () => {
  it('names the worker and the address derived from FINANCIAL_AGENT_KEY', async () => {
    const response = await SELF.fetch('http://specialist.test/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      name: 'specialist',
      version: expect.any(String),
      address: 'agent1qd6zxzmnenyujt9upxj8q688sql56zr5pt3jwqzjxl7hfja0nl8zu6c9lg5',
    });
  });
});
