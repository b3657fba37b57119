import { createExecutionContext, env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAttestation } from '../../lib/registry-client/index.ts';
import worker from '../../workers/registry/src/index.ts';
import { expectSameRefusalWhateverTheLabel, REFUSED_BODIES, withContentType, WRONG_CONTENT_TYPES } from '../support/content-types.ts';
import { ADMIN_TOKEN, BASE, freshIdentity, migrate, newKey } from './helpers.ts';

/**
 * Every JSON endpoint of the registry reads its body whatever the Content-Type says (issue 13: a body sent
 * without `application/json` was ignored, and search answered every agent). Requests go to the Worker's
 * fetch handler directly, as in fuzz.test.ts (hundreds of SELF.fetch calls slow vitest-pool-workers down).
 */
function sender(method: string, path: string, authorization: string) {
  // Bytes, not a string: fetch would label a string body text/plain by itself.
  return (body: string, contentType: string | null) =>
    worker.fetch(
      new Request(`${BASE}${path}`, {
        method,
        headers: withContentType(contentType, { authorization }),
        body: new TextEncoder().encode(body),
      }),
      env,
      createExecutionContext(),
    );
}

let key: string;
let agent: string;
let attestation: string;

beforeAll(async () => {
  await migrate();
  key = (await newKey(['read', 'write', 'keys'])).key;
  const identity = freshIdentity();
  agent = identity.address;
  attestation = createAttestation(identity);
});

const endpoints: [string, string, () => string][] = [
  ['POST', '/v1/keys', () => `Bearer ${ADMIN_TOKEN}`],
  ['PATCH', '/v1/keys/0123456789abcdef', () => `Bearer ${ADMIN_TOKEN}`],
  ['POST', '/v1/search/agents', () => `Bearer ${key}`],
  ['POST', '/v1/search/agents/click', () => `Bearer ${key}`],
  ['POST', '/v1/search/functions', () => `Bearer ${key}`],
  ['POST', '/v2/identity', () => `Bearer ${key}`],
  ['POST', '/v1/auth/challenge', () => `Bearer ${key}`],
  ['POST', '/v1/auth/prove', () => `Bearer ${key}`],
  ['POST', '/v2/agents', () => `Bearer ${key}`],
  ['PUT', '/v2/agents/{agent}', () => `Bearer ${key}`],
  ['PATCH', '/v2/agents/{agent}', () => `Bearer ${key}`],
  ['POST', '/v1/agents', () => `Bearer ${key}`],
  ['PUT', '/v1/agents/{agent}', () => `Bearer ${key}`],
  ['POST', '/v1/almanac/agents/{agent}/status', () => ''],
  ['POST', '/v1/almanac/agents', () => ''],
  ['POST', '/v2/agents/interactions', () => `Agent ${attestation}`],
  ['POST', '/v2/agents/proxy/submit', () => ''],
];

describe('registry: a JSON body is read whatever its Content-Type', () => {
  it.each(endpoints)('%s %s refuses a bad body the same with a wrong or missing label', async (method, path, authorization) => {
    const send = sender(method, path.replace('{agent}', agent), authorization());
    for (const body of REFUSED_BODIES) await expectSameRefusalWhateverTheLabel(send, body, `${method} ${path} ${body}`);
  });

  it('a filter value outside the allowed set is a 400, labelled or not (the search of issue 13)', async () => {
    const send = sender('POST', '/v1/search/agents', `Bearer ${key}`);
    await expectSameRefusalWhateverTheLabel(send, JSON.stringify({ filters: { state: ['nonsense'] } }), 'search with a bad filter');
    const refused = await send('{not json', 'text/plain');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
  });

  it('a good body without the label is taken as sent', async () => {
    const send = sender('POST', '/v1/search/agents', `Bearer ${key}`);
    for (const contentType of WRONG_CONTENT_TYPES) {
      const response = await send(JSON.stringify({ limit: 1, offset: 2 }), contentType);
      expect(response.status, `Content-Type ${contentType ?? '(none)'}`).toBe(200);
      expect(await response.json()).toMatchObject({ limit: 1, offset: 2 });
    }
  });

  it('no body at all is still an empty request where that is allowed', async () => {
    const request = new Request(`${BASE}/v1/search/agents`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
    const response = await worker.fetch(request, env, createExecutionContext());
    expect(response.status).toBe(200);
  });
});
