import { SELF } from 'cloudflare:test';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routerErrorSchema } from '../../schemas/router-api.ts';
import { SPECIALIST } from './helpers/conversation.ts';
import { installFakeNetwork, type FakeNetwork } from './helpers/fake-network.ts';

/**
 * Seeded random send-request bodies that break its limits (input over 10,000 characters, empty or not a
 * string, a request_id that is not a UUID), and one client over its 30 questions a minute. Each must be a
 * 4xx in the router's dialect (`{error, code, param}`), never a 5xx, and send nothing to any agent.
 */
const RUNS = 150;
const SEED = 20261124;
const INPUT_MAX = 10_000;
const PER_CLIENT_PER_MINUTE = 30;

let network: FakeNetwork;
beforeEach(() => {
  network = installFakeNetwork(SPECIALIST.address);
  network.registered.push(SPECIALIST.address);
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The rate limit counts per clock minute: a test that spends a client's budget starts early in a minute. */
async function freshMinute() {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 30_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/** Each call from a client of its own unless `client` is given: the per-client limit must not answer in place of the body check. */
const send = (body: string, client = `203.0.113.9-${crypto.randomUUID()}`) =>
  SELF.fetch('http://router.test/api/send-request', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': client },
    body,
  });

const unit = fc.constantFrom('a', ' ', 'é', '数', '🌱', '\n', '"', '\\', '\u0000');
const tooLong = fc.tuple(unit, fc.integer({ min: 1, max: 5000 })).map(([u, extra]) => u.repeat(INPUT_MAX + extra));
const notUuid = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.uuid().map((id) => `${id}0`),
  fc.uuid().map((id) => id.replace(/-/g, '')),
  fc.uuid().map((id) => ` ${id}`),
  fc.constantFrom('', 'null', '00000000-0000-0000-0000-00000000000g'),
);
const notAString = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.object({ maxDepth: 1 }),
);

/** A body with one field out of bounds, the other valid or absent, as JSON text. */
const badBody = fc.oneof(
  fc
    .record({ input: tooLong, request_id: fc.option(fc.uuid(), { nil: undefined }) })
    .map((b) => ({ param: 'input', body: JSON.stringify(b) })),
  fc
    .record({ input: fc.constantFrom('', ' ', '\n\t', '\u00a0 '), request_id: fc.option(fc.uuid(), { nil: undefined }) })
    .map((b) => ({ param: 'input', body: JSON.stringify(b) })),
  notAString.map((input) => ({ param: 'input', body: JSON.stringify({ input }) })),
  fc
    .record({ input: fc.string({ minLength: 1, maxLength: 50 }).filter((s) => s.trim() !== ''), request_id: fc.oneof(notUuid, notAString) })
    .map((b) => ({ param: 'request_id', body: JSON.stringify(b) })),
  fc
    .string({ maxLength: 40 })
    .filter((text) => {
      try {
        JSON.parse(text);
        return false;
      } catch {
        return true;
      }
    })
    .map((body) => ({ param: null, body })),
);

describe('fuzz: send-request’s limits', () => {
  it(`${RUNS} bodies out of bounds: a 400 in the router’s dialect naming the field, and nothing sent`, { timeout: 120_000 }, async () => {
    const failures: string[] = [];
    for (const { param, body } of fc.sample(badBody, { numRuns: RUNS, seed: SEED })) {
      const response = await send(body);
      const parsed = routerErrorSchema.safeParse(await response.json().catch(() => null));
      if (response.status !== 400 || !parsed.success || (param !== null && parsed.data.param !== param))
        failures.push(`${body.slice(0, 80)} → ${response.status} ${parsed.success ? parsed.data.param : 'not the router’s error body'}`);
    }
    expect(failures).toEqual([]);
    expect(network.searches).toHaveLength(0);
    expect(network.delivered).toHaveLength(0);
  });

  it('one client over its questions a minute: 429 with retry-after in the router’s dialect; only the first 30 are sent', {
    timeout: 120_000,
  }, async () => {
    await freshMinute();
    const client = `198.51.100.7-${crypto.randomUUID()}`;
    const inputs = fc.sample(
      fc.string({ minLength: 1, maxLength: 200 }).filter((s) => s.trim() !== ''),
      { numRuns: PER_CLIENT_PER_MINUTE + 12, seed: SEED },
    );
    const statuses: number[] = [];
    for (const input of inputs) {
      const response = await send(JSON.stringify({ input, request_id: crypto.randomUUID() }), client);
      statuses.push(response.status);
      if (response.status === 429) {
        expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(routerErrorSchema.parse(await response.json())).toMatchObject({ code: 'rate_limited' });
      } else await response.body?.cancel();
    }
    expect(statuses.slice(0, PER_CLIENT_PER_MINUTE).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(PER_CLIENT_PER_MINUTE).every((status) => status === 429)).toBe(true);
    await vi.waitFor(() => expect(network.delivered).toHaveLength(PER_CLIENT_PER_MINUTE));
    expect(network.delivered.map((d) => (d.payload as { request: string }).request)).toEqual(inputs.slice(0, PER_CLIENT_PER_MINUTE));
    // Another client is not held back.
    expect((await send(JSON.stringify({ input: 'still open?' }))).status).toBe(200);
  });
});
