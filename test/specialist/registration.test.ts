import { SELF } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SPECIALIST_README, SPECIALIST_TITLE } from '../../workers/specialist/src/readme.ts';
import { installFakeNetwork, type FakeNetwork } from './helpers/fake-network.ts';

let network: FakeNetwork;
beforeEach(() => {
  network = installFakeNetwork();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the specialist in the registry', () => {
  it('registers itself on its first event, at FINANCIAL_WEBHOOK_URL, with its README', async () => {
    await SELF.fetch('http://specialist.test/health');
    await vi.waitFor(() => expect(network.registrations).toHaveLength(1));
    expect(network.registrations[0]).toEqual({ url: 'http://specialist.test/webhook', name: SPECIALIST_TITLE, readme: SPECIALIST_README });
  });

  it('has a README the registry can index: flush left, tag and domain badges, the request parameter', () => {
    expect(SPECIALIST_README.split('\n').filter((line) => /^\s+\S/.test(line))).toEqual([]);
    expect(SPECIALIST_README).toMatch(/^!\[tag:finance\]\(https:\/\/img\.shields\.io\/badge\/[^)]+\)$/m);
    const domain = /^!\[tag:domain\/([a-z-]+)\]\((\S+)\/([\w-]+)-([0-9A-Fa-f]{6})\)$/m.exec(SPECIALIST_README);
    expect(domain?.[1]).toBe('finance');
    expect(SPECIALIST_README).toMatch(/<description>[^<]{80,}<\/description>/);
    expect(SPECIALIST_README.match(/<use_case>/g)?.length).toBeGreaterThanOrEqual(2);
    expect(SPECIALIST_README).toMatch(
      /<payload_requirements>\s*<payload>\s*<requirement>\s*<parameter>request<\/parameter>\s*<description>[^<]+<\/description>\s*<\/requirement>\s*<\/payload>\s*<\/payload_requirements>/,
    );
    // The router finds the specialist by these words (workers/router/wrangler.toml SPECIALIST_QUERY).
    for (const word of ['financial', 'analysis', 'SEC', 'filings']) expect(SPECIALIST_README).toContain(word);
  });
});
