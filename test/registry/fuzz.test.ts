import { createExecutionContext, env } from 'cloudflare:test';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAttestation, signVerifiableModel } from '../../lib/registry-client/index.ts';
import worker from '../../workers/registry/src/index.ts';
import { ADMIN_TOKEN, BASE, freshIdentity, migrate, newKey, registered, registrationBody } from './helpers.ts';

/**
 * Random and malformed requests against every registry endpoint: whatever arrives, the answer is never a
 * 5xx and always a JSON body. Seeded, so a failure reproduces. Requests go to the Worker's fetch handler
 * directly: thousands of SELF.fetch calls in one file slow down quadratically in vitest-pool-workers 0.15
 * (its entrypoint wrapper nests one more prototype Proxy per call) and finally overflow the stack.
 */
const RUNS = 5200;
const CONCURRENCY = 8;

interface Context {
  key: string;
  address: string;
  otherAddress: string;
  templates: Record<string, unknown>;
  authorizations: string[];
}

const ENDPOINTS: { method: string; path: (address: string) => string; template?: string }[] = [
  { method: 'GET', path: () => '/health' },
  { method: 'POST', path: () => '/v1/keys', template: 'key' },
  { method: 'GET', path: () => '/v1/keys' },
  { method: 'DELETE', path: (a) => `/v1/keys/${a}` },
  { method: 'POST', path: () => '/v1/search/agents', template: 'search' },
  { method: 'POST', path: () => '/v1/search/agents/click', template: 'click' },
  { method: 'POST', path: () => '/v1/search/functions', template: 'search' },
  { method: 'GET', path: (a) => `/v1/almanac/agents/${a}` },
  { method: 'POST', path: (a) => `/v1/almanac/agents/${a}/status`, template: 'status' },
  { method: 'POST', path: () => '/v1/almanac/agents', template: 'attestation' },
  { method: 'GET', path: (a) => `/v2/identity/${a}/challenge` },
  { method: 'POST', path: () => '/v2/identity', template: 'proof' },
  { method: 'POST', path: () => '/v1/auth/challenge', template: 'proof' },
  { method: 'POST', path: () => '/v1/auth/prove', template: 'proof' },
  { method: 'GET', path: (a) => `/v2/agents/${a}` },
  { method: 'POST', path: () => '/v2/agents', template: 'registration' },
  { method: 'PUT', path: (a) => `/v2/agents/${a}`, template: 'update' },
  { method: 'PATCH', path: (a) => `/v2/agents/${a}`, template: 'update' },
  { method: 'DELETE', path: (a) => `/v2/agents/${a}` },
  { method: 'GET', path: (a) => `/v1/agents/${a}` },
  { method: 'POST', path: () => '/v1/agents', template: 'registration' },
  { method: 'PUT', path: (a) => `/v1/agents/${a}`, template: 'update' },
  { method: 'POST', path: () => '/v2/agents/interactions', template: 'interaction' },
  { method: 'POST', path: () => '/v2/agents/proxy/submit', template: 'envelope' },
];

const weird = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.constantFrom(
    '',
    ' ',
    '%00',
    '%2e%2e',
    '..%2f..',
    'agent1',
    `agent1${'q'.repeat(200)}`,
    '🌱',
    '<script>',
    "' OR 1=1 --",
    'null',
    '[]',
    '{}',
  ),
  fc.stringMatching(/^[a-z0-9]{1,70}$/),
);

/** Replaces a random top-level field of a valid body with anything, or drops it, or adds one. */
function mutated(template: unknown) {
  if (!template || typeof template !== 'object' || Array.isArray(template) || Object.keys(template).length === 0)
    return fc.constant(template);
  const keys = Object.keys(template);
  return fc.oneof(
    fc
      .record({ key: fc.constantFrom(...keys), value: fc.anything({ maxDepth: 3 }) })
      .map(({ key, value }) => ({ ...template, [key]: value })),
    fc.constantFrom(...keys).map((key) => Object.fromEntries(Object.entries(template).filter(([name]) => name !== key))),
    fc
      .record({ key: fc.string({ maxLength: 20 }), value: fc.jsonValue({ maxDepth: 2 }) })
      .map(({ key, value }) => ({ ...template, [key]: value })),
    fc.constant(template),
  );
}

function requestArbitrary(context: Context) {
  return fc
    .record({
      endpoint: fc.constantFrom(...ENDPOINTS),
      address: fc.oneof(
        fc.constantFrom(context.address, context.otherAddress),
        weird.map((text) => encodeURIComponent(text)),
      ),
      // Mostly a key that passes authentication, so the bodies reach validation and the handlers.
      authorization: fc.oneof(
        { weight: 6, arbitrary: fc.constant(`Bearer ${context.key}`) },
        { weight: 2, arbitrary: fc.constantFrom(...context.authorizations) },
        { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
        { weight: 1, arbitrary: fc.constant(undefined) },
      ),
      contentType: fc.constantFrom(
        'application/json',
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/json; charset=utf-8',
        undefined,
      ),
      bodyKind: fc.constantFrom('mutated', 'mutated', 'json', 'text', 'none', 'bytes'),
      junkPath: fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: weird }),
      seedBody: fc.nat(),
    })
    .chain((shape) => {
      const template = shape.endpoint.template ? context.templates[shape.endpoint.template] : {};
      const body =
        shape.bodyKind === 'mutated'
          ? mutated(template).map((value) => JSON.stringify(value))
          : shape.bodyKind === 'json'
            ? fc.json({ maxDepth: 3 })
            : shape.bodyKind === 'text'
              ? fc.string({ maxLength: 200 })
              : shape.bodyKind === 'bytes'
                ? fc.uint8Array({ maxLength: 64 }).map((bytes) => String.fromCharCode(...bytes))
                : fc.constant(undefined);
      return body.map((text) => ({ ...shape, body: text }));
    });
}

beforeAll(migrate);

describe('fuzz: random and malformed requests against every registry endpoint', () => {
  it(`${RUNS} requests: no 5xx, every answer is JSON`, { timeout: 600_000 }, async () => {
    const key = await newKey(['read', 'write', 'chat', 'keys']);
    const reader = await newKey(['read']);
    const owned = freshIdentity();
    await registered(owned, key.key);
    const other = freshIdentity();
    const now = Math.floor(Date.now() / 1000);
    const context: Context = {
      key: key.key,
      address: owned.address,
      otherAddress: other.address,
      authorizations: [
        `Bearer ${key.key}`,
        `Bearer ${reader.key}`,
        `Bearer ${ADMIN_TOKEN}`,
        `Agent ${createAttestation(owned)}`,
        'Bearer',
        'Agent attr:AAAA:sig1',
        `Bearer ${key.key}x`,
      ],
      templates: {
        key: { name: 'fuzz', permissions: ['read'], limits: { requests_per_minute: 5 } },
        search: { search_text: 'finance', filters: { state: ['active'] }, limit: 5 },
        click: { search_id: crypto.randomUUID(), page_index: 0, address: owned.address },
        status: signVerifiableModel(owned, { agent_identifier: owned.address, is_active: true, timestamp: now }),
        attestation: signVerifiableModel(other, {
          agent_identifier: other.address,
          protocols: [],
          endpoints: [{ url: 'https://fuzz.example.com/submit', weight: 1 }],
          metadata: null,
          timestamp: now,
        }),
        proof: { address: other.address, challenge: 'x', challenge_response: 'sig1qqqq' },
        registration: registrationBody(other),
        update: { name: 'Fuzzed', readme: '![tag:x](y)' },
        interaction: { target: owned.address, source: other.address, session_id: 'fuzz' },
        envelope: {
          version: 1,
          sender: other.address,
          target: owned.address,
          session: crypto.randomUUID(),
          schema_digest: 'model:x',
          protocol_digest: null,
          payload: 'e30=',
          expires: null,
          nonce: null,
          signature: 'sig1qqqq',
        },
      },
    };

    // Seeded samples sent CONCURRENCY at a time: the same 5,200 requests every run, in a fraction of the time.
    const requests = fc.sample(requestArbitrary(context), { numRuns: RUNS, seed: 20260423 });
    const failures: string[] = [];
    const send = async (request: (typeof requests)[number]) => {
      const path = request.junkPath !== undefined ? `/${encodeURIComponent(request.junkPath)}` : request.endpoint.path(request.address);
      const headers: Record<string, string> = {};
      if (request.authorization !== undefined) headers.authorization = request.authorization.replace(/[\r\n\0]/g, '');
      if (request.contentType) headers['content-type'] = request.contentType;
      const hasBody = request.body !== undefined && request.endpoint.method !== 'GET';
      const response = await worker.fetch(
        new Request(`${BASE}${path}`, { method: request.endpoint.method, headers, body: hasBody ? request.body : undefined }),
        env,
        createExecutionContext(),
      );
      const text = await response.text();
      let parsed = true;
      try {
        JSON.parse(text);
      } catch {
        parsed = false;
      }
      if (response.status >= 500 || !parsed) failures.push(`${request.endpoint.method} ${path} → ${response.status} ${text.slice(0, 200)}`);
    };
    const queue = [...requests];
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let request = queue.shift(); request; request = queue.shift()) await send(request);
      }),
    );
    expect(requests).toHaveLength(RUNS);
    expect(failures).toEqual([]);
  });
});
