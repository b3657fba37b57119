import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { teamFromEnv } from '../../workers/specialist/src/config.ts';
import { edgarRatePerSecond } from '../../workers/specialist/src/edgar/rate-limiter.ts';
import { installFakeNetwork, type FakeNetwork } from './helpers/fake-network.ts';

let network: FakeNetwork;
beforeEach(() => {
  network = installFakeNetwork();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** A bucket of its own, so that no other test's requests share it. */
const bucket = () => env.EDGAR_RATE_LIMITER.get(env.EDGAR_RATE_LIMITER.idFromName(`test-${crypto.randomUUID()}`));

describe('EdgarRateLimiter (Durable Object token bucket)', () => {
  it('lets the first request go at once and queues the next ones 1/rate apart', async () => {
    const limiter = bucket();
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) waits.push(await limiter.reserve(10));
    expect(waits[0]).toBe(0);
    waits.slice(1).forEach((wait, i) => {
      // The i-th queued request waits (i + 1) × 100 ms, less the time the calls themselves took.
      expect(wait).toBeGreaterThan((i + 1) * 100 - 50);
      expect(wait).toBeLessThanOrEqual((i + 1) * 100);
    });
  });

  it('refills with time but holds one token at most, so an idle pause allows no burst', async () => {
    const limiter = bucket();
    expect(await limiter.reserve(10)).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await limiter.reserve(10)).toBe(0);
    expect(await limiter.reserve(10)).toBeGreaterThan(50);
  });

  it('takes its rate from the config only within (0, 10] per second, the SEC ceiling', () => {
    expect(edgarRatePerSecond(undefined)).toBe(9);
    expect(edgarRatePerSecond('')).toBe(9);
    expect(edgarRatePerSecond('0')).toBe(9);
    expect(edgarRatePerSecond('-3')).toBe(9);
    expect(edgarRatePerSecond('many')).toBe(9);
    expect(edgarRatePerSecond('2.5')).toBe(2.5);
    expect(edgarRatePerSecond('50')).toBe(10);
  });
});

describe('the EDGAR client', () => {
  it('keeps concurrent uncached requests under the configured rate (9 per second: 111 ms apart)', async () => {
    const { edgar } = teamFromEnv(env);
    const run = crypto.randomUUID();
    await Promise.all(Array.from({ length: 6 }, (_, i) => edgar.fullTextSearch(`rate ${run} ${i}`)));
    const times = network.edgarRequests
      .filter((r) => r.url.includes(run))
      .map((r) => r.at)
      .sort((a, b) => a - b);
    expect(times).toHaveLength(6);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(100);
  });

  it('asks EDGAR once for concurrent requests of the same document (the analyses of one batch)', async () => {
    const { edgar } = teamFromEnv(env);
    const run = crypto.randomUUID();
    const answers = await Promise.all(Array.from({ length: 4 }, () => edgar.fullTextSearch(`together ${run} "NVIDIA CORP"`)));
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(network.edgarRequests.filter((r) => r.url.includes(run))).toHaveLength(1);
  });

  it('answers a repeated request from the cache, without asking EDGAR again', async () => {
    const { edgar } = teamFromEnv(env);
    const run = crypto.randomUUID();
    const query = `cache ${run} "Apple Inc."`;
    const first = await edgar.fullTextSearch(query);
    const second = await edgar.fullTextSearch(query);
    expect(second).toEqual(first);
    expect(first.hits.hits.length).toBeGreaterThan(0);
    expect(network.edgarRequests.filter((r) => r.url.includes(run))).toHaveLength(1);
  });

  it('remembers what EDGAR does not have: a company without facts is asked for once, from separate clients', async () => {
    // A CIK of its own (the isolate keeps what it read across tests).
    const cik = 900_000_000 + Math.floor(Math.random() * 90_000_000);
    expect(await teamFromEnv(env).edgar.companyFacts(cik)).toBeNull();
    expect(await teamFromEnv(env).edgar.companyFacts(cik)).toBeNull();
    expect(network.edgarRequests.filter((r) => r.url.includes(String(cik)))).toHaveLength(1);
  });

  it('serves a document read once to later analyses without asking EDGAR or re-reading it', async () => {
    const run = crypto.randomUUID();
    const first = await teamFromEnv(env).edgar.fullTextSearch(`kept ${run} "Apple Inc."`);
    const second = await teamFromEnv(env).edgar.fullTextSearch(`kept ${run} "Apple Inc."`);
    // The very object: checked once, shared read-only.
    expect(second).toBe(first);
    expect(network.edgarRequests.filter((r) => r.url.includes(run))).toHaveLength(1);
  });
});
