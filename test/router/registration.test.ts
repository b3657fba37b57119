import { SELF } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ROUTER, SPECIALIST } from './helpers/conversation.ts';
import { installFakeNetwork } from './helpers/fake-network.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('router registration', () => {
  it('registers itself with its webhook URL, title and README on its first request, once', async () => {
    const network = installFakeNetwork(SPECIALIST.address);
    expect((await SELF.fetch('http://router.test/health')).status).toBe(200);
    await vi.waitFor(() => expect(network.registrations).toHaveLength(1));
    const [registration] = network.registrations;
    expect(registration).toMatchObject({
      address: ROUTER.address,
      name: 'Rendezvous router',
      url: 'http://localhost:5001/webhook',
      authorization: 'Bearer test-registry-key',
    });
    expect(registration!.readme).toMatch(/^# Rendezvous router\n/);
    expect(registration!.readme).not.toMatch(/financial|filings/i);

    await SELF.fetch('http://router.test/health');
    await SELF.fetch('http://router.test/api/get-response');
    expect(network.registrations).toHaveLength(1);
  });
});
