import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { chatMessage } from '../../lib/agent/chat-protocol.ts';
import { buildEnvelope, serializeEnvelope } from '../../lib/envelope/index.ts';
import { Identity } from '../../lib/identity/index.ts';
import { createAttestation, registerAgent, signVerifiableModel } from '../../lib/registry-client/index.ts';
import { createdKeySchema } from '../../schemas/keys.ts';
import { challengeResponseSchema } from '../../schemas/registry.ts';
import { agentSearchResponseSchema } from '../../schemas/search.ts';
import { readDevVars } from '../../scripts/stack/dev-vars.ts';
import { secretsFiles } from '../../scripts/stack/secrets.ts';
import { ROOT } from '../../scripts/stack/stack.ts';
import { createTempStack, type TempStack } from './helpers/temp-stack.ts';

// biome-ignore lint/suspicious/noExplicitAny: a JSON document walked by path; the assertions check its shape, not the compiler.
type Json = Record<string, any>;

/** A sample request for one documented operation, and the documented status it must get. */
interface Sample {
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** Raw body text (an envelope) instead of JSON. */
  text?: string;
  headers?: Record<string, string>;
  status: number;
}

/** `$ref`s into components replaced by the schemas they name, so one schema can be checked on its own. */
// biome-ignore lint/suspicious/noExplicitAny: any JSON value, handed to z.fromJSONSchema as a schema.
function inline(schema: unknown, components: Json): any {
  if (Array.isArray(schema)) return schema.map((item) => inline(item, components));
  if (!schema || typeof schema !== 'object') return schema;
  const ref = (schema as Json).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) return inline(components[ref.split('/').pop()!], components);
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, inline(value, components)]));
}

function operations(doc: Json): { method: string; path: string; op: Json }[] {
  return Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json).map(([method, op]) => ({ method, path, op: op as Json })),
  );
}

/** Sends the sample and checks the answer against the document: a documented status, a body of the documented shape. */
async function check(
  base: string,
  doc: Json,
  method: string,
  path: string,
  op: Json,
  sample: Sample,
  bearer: string | null,
): Promise<void> {
  const label = `${method.toUpperCase()} ${path}`;
  let url = base + path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(sample.path?.[name] ?? 'missing'));
  if (sample.query) url += `?${new URLSearchParams(sample.query)}`;
  const headers: Record<string, string> = { ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}), ...sample.headers };
  const body = sample.text ?? (sample.body === undefined ? undefined : JSON.stringify(sample.body));
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(url, { method: method.toUpperCase(), headers, body });
  const text = await response.text();
  expect(response.status, `${label}: ${text.slice(0, 300)}`).toBe(sample.status);
  const documented = op.responses[String(response.status)];
  expect(documented, `${label} answered ${response.status}, which is not documented`).toBeDefined();
  const [contentType, media] = Object.entries((documented.content ?? {}) as Json).find(([type]) => type !== 'text/event-stream') ?? [];
  if (!contentType) return;
  expect(response.headers.get('content-type'), label).toContain(contentType);
  if (media.schema) {
    const parsed = z.fromJSONSchema(inline(media.schema, doc.components.schemas)).safeParse(JSON.parse(text));
    expect(
      parsed.success,
      `${label} ${response.status} body does not match the document: ${parsed.error?.message}\n${text.slice(0, 500)}`,
    ).toBe(true);
  }
}

describe('the OpenAPI documents, checked against the running Workers', () => {
  let temp: TempStack;
  let registry: string;
  let chat: string;
  let admin: string;
  let key: string;
  const docs: Record<'registry' | 'chat', Json> = { registry: {}, chat: {} };

  const post = (url: string, token: string, body: unknown) =>
    fetch(url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const newKey = async (token: string, permissions: string[]) =>
    createdKeySchema.parse(await (await post(`${registry}/v1/keys`, token, { name: 'openapi test', permissions })).json());
  const agent = (seed: string) => Identity.fromSeed(`openapi test ${seed}`, 0);
  const register = (seed: string, url = 'https://agent.openapi.example/webhook') =>
    registerAgent({
      registryUrl: registry,
      token: key,
      seed: `openapi test ${seed}`,
      url,
      title: `Sample ${seed}`,
      readme: `# Sample ${seed}\n\n![tag:sample](https://b.example/x)`,
    });
  const challenge = async (address: string) =>
    challengeResponseSchema.parse(
      await (await fetch(`${registry}/v2/identity/${address}/challenge`, { headers: { Authorization: `Bearer ${key}` } })).json(),
    ).challenge;

  beforeAll(async () => {
    temp = await createTempStack({ client: false });
    await temp.stack.start('registry');
    await temp.stack.start('chat');
    ({ registry, chat } = temp.stack.urls);
    admin = readDevVars(secretsFiles(ROOT, join(temp.dir, 'secrets')).registry).ADMIN_TOKEN!;
    key = (await newKey(admin, ['read', 'write', 'chat', 'keys'])).key;
    await register('main');
    docs.registry = (await (await fetch(`${registry}/openapi.json`)).json()) as Json;
    docs.chat = (await (await fetch(`${chat}/openapi.json`)).json()) as Json;
  });
  afterAll(async () => {
    await temp?.dispose();
  });

  /** One sample per documented operation of the registry; most succeed, the signed ones are really signed. */
  const registrySamples = (): Record<string, () => Promise<Sample>> => {
    const main = agent('main').address;
    const agentPaths = (prefix: string, n: string): Record<string, () => Promise<Sample>> => ({
      [`post ${prefix}`]: async () => ({
        body: { address: main, name: 'Sample main', url: 'https://agent.openapi.example/webhook' },
        status: 200,
      }),
      [`get ${prefix}/{address}`]: async () => ({ path: { address: main }, status: 200 }),
      [`get ${prefix}/handles/{handle}`]: async () => ({ path: { handle: 'nobody-holds-this-handle' }, status: 404 }),
      [`put ${prefix}/{address}`]: async () => ({
        path: { address: main },
        body: { readme: '# Sample main\n\nUpdated with PUT.' },
        status: 200,
      }),
      [`patch ${prefix}/{address}`]: async () => ({ path: { address: main }, body: { short_description: 'patched' }, status: 200 }),
      [`delete ${prefix}/{address}`]: async () => {
        await register(`to delete ${n}`);
        return { path: { address: agent(`to delete ${n}`).address }, status: 200 };
      },
    });
    return {
      'get /health': async () => ({ status: 200 }),
      'get /openapi.json': async () => ({ status: 200 }),
      'get /docs': async () => ({ status: 200 }),
      'post /v1/keys': async () => ({
        headers: { Authorization: `Bearer ${admin}` },
        body: { name: 'sample', permissions: ['read'] },
        status: 201,
      }),
      'get /v1/keys': async () => ({ status: 200 }),
      'patch /v1/keys/{id}': async () => ({
        headers: { Authorization: `Bearer ${admin}` },
        path: { id: (await newKey(key, ['chat'])).id },
        body: { name: 'renamed', limits: { requests_per_minute: 60 } },
        status: 200,
      }),
      'delete /v1/keys/{id}': async () => ({ path: { id: (await newKey(key, ['read'])).id }, status: 200 }),
      'get /v1/featured-agents': async () => ({ headers: { Authorization: `Bearer ${admin}` }, status: 200 }),
      'put /v1/featured-agents/{address}': async () => ({
        headers: { Authorization: `Bearer ${admin}` },
        path: { address: main },
        status: 200,
      }),
      'delete /v1/featured-agents/{address}': async () => ({
        headers: { Authorization: `Bearer ${admin}` },
        path: { address: main },
        status: 200,
      }),
      'post /v1/search/agents': async () => ({ body: { search_text: 'sample', limit: 5 }, status: 200 }),
      'post /v1/search/agents/click': async () => {
        const found = agentSearchResponseSchema.parse(
          await (await post(`${registry}/v1/search/agents`, key, { search_text: 'sample main' })).json(),
        );
        return { body: { search_id: found.search_id, page_index: 0, address: main }, status: 200 };
      },
      'post /v1/search/functions': async () => ({ body: { search_text: 'sample' }, status: 200 }),
      'get /v1/almanac/agents/{address}': async () => ({ path: { address: main }, status: 200 }),
      'post /v1/almanac/agents/{address}/status': async () => ({
        path: { address: main },
        body: signVerifiableModel(agent('main'), { agent_identifier: main, is_active: true, timestamp: Math.floor(Date.now() / 1000) }),
        status: 200,
      }),
      'post /v1/almanac/agents': async () => {
        const identity = agent('almanac');
        const fields = {
          agent_identifier: identity.address,
          protocols: [],
          endpoints: [{ url: 'https://almanac.openapi.example/webhook', weight: 1 }],
          metadata: null,
          timestamp: Math.floor(Date.now() / 1000),
        };
        return { body: signVerifiableModel(identity, fields), status: 200 };
      },
      'post /v1/almanac/agents/batch': async () => {
        const identity = agent('almanac batch');
        const fields = {
          agent_identifier: `agent://${identity.address}`,
          protocols: [],
          endpoints: [{ url: 'https://almanac.openapi.example/webhook', weight: 1 }],
          metadata: null,
          timestamp: Math.floor(Date.now() / 1000),
        };
        return { body: { attestations: [signVerifiableModel(identity, fields)] }, status: 200 };
      },
      'get /v2/almanac/resolve/{identifier}': async () => ({ path: { identifier: main }, status: 200 }),
      'post /v2/agents/mailbox/submit': async () => {
        await register('mailbox', `${registry}/v2/agents/mailbox/submit`);
        const envelope = buildEnvelope({
          sender: agent('source'),
          target: agent('mailbox').address,
          schemaDigest: 'model:sample',
          payload: { n: 1 },
        });
        return { text: serializeEnvelope(envelope), status: 200 };
      },
      'get /v2/agents/mailbox/submit': async () => ({ status: 200 }),
      'get /v2/agents/{address}/mailbox': async () => ({
        headers: { Authorization: `Agent ${createAttestation(agent('mailbox'))}` },
        path: { address: agent('mailbox').address },
        status: 200,
      }),
      'get /v2/agents/{address}/mailbox/status': async () => ({
        headers: { Authorization: `Agent ${createAttestation(agent('mailbox'))}` },
        path: { address: agent('mailbox').address },
        status: 200,
      }),
      'delete /v2/agents/{address}/mailbox/{uuid}': async () => ({
        headers: { Authorization: `Agent ${createAttestation(agent('mailbox'))}` },
        path: { address: agent('mailbox').address, uuid: crypto.randomUUID() },
        status: 404,
      }),
      'get /v2/identity/{address}/challenge': async () => ({ path: { address: agent('v2 identity').address }, status: 200 }),
      'post /v2/identity': async () => {
        const identity = agent('v2 proof');
        const issued = await challenge(identity.address);
        return { body: { address: identity.address, challenge: issued, challenge_response: identity.sign(issued) }, status: 200 };
      },
      'post /v1/auth/challenge': async () => ({ body: { address: agent('v1 identity').address }, status: 200 }),
      'post /v1/auth/prove': async () => {
        const identity = agent('v1 proof');
        const issued = await challenge(identity.address);
        return { body: { address: identity.address, challenge: issued, challenge_response: identity.sign(issued) }, status: 200 };
      },
      'get /v2/agents': async () => ({ status: 200 }),
      ...agentPaths('/v2/agents', 'v2'),
      ...agentPaths('/v1/agents', 'v1'),
      'post /v2/agents/interactions': async () => {
        await register('source');
        return {
          headers: { Authorization: `Agent ${createAttestation(agent('source'))}` },
          body: { target: main, source: agent('source').address },
          status: 200,
        };
      },
      'post /v2/agents/proxy/submit': async () => {
        // The target's webhook is a Worker route that refuses the POST, so the relay answers 502 with what it got.
        await register('proxy target', `${chat}/health`);
        const envelope = buildEnvelope({
          sender: agent('source'),
          target: agent('proxy target').address,
          schemaDigest: 'model:sample',
          payload: { hello: 'world' },
        });
        return { text: serializeEnvelope(envelope), status: 502 };
      },
    };
  };

  /** A response stored for the test's key, for the routes that read or delete one. */
  const storedResponse = async (): Promise<string> => {
    const response = await post(`${chat}/v1/responses`, key, { model: 'llm1', input: 'echo: kept' });
    return ((await response.json()) as { id: string }).id;
  };

  const chatSamples = (): Record<string, () => Promise<Sample>> => ({
    'get /health': async () => ({ status: 200 }),
    'get /openapi.json': async () => ({ status: 200 }),
    'get /docs': async () => ({ status: 200 }),
    'post /v1/chat/completions': async () => ({
      body: { model: 'llm1', messages: [{ role: 'user', content: 'echo: hello' }], agent_discovery: true },
      status: 200,
    }),
    'post /v1/responses': async () => ({ body: { model: 'llm1', input: 'echo: hello' }, status: 200 }),
    'get /v1/responses/{id}': async () => ({ path: { id: await storedResponse() }, status: 200 }),
    'delete /v1/responses/{id}': async () => ({ path: { id: await storedResponse() }, status: 200 }),
    'post /v1/embeddings': async () => ({ body: { model: 'embed1', input: 'hello' }, status: 200 }),
    'get /v1/models': async () => ({ status: 200 }),
    'get /v1/models/{id}': async () => ({ path: { id: 'llm1' }, status: 200 }),
    'get /v1/usage': async () => ({ status: 200 }),
    // A chat message, signed, to the chat agent in a session none of its conversations has.
    'post /agent/webhook': async () => {
      const message = chatMessage('hello');
      const envelope = buildEnvelope({ sender: agent('stranger'), target: temp.stack.chatAgentAddress, ...message });
      return { text: serializeEnvelope(envelope), status: 404 };
    },
  });

  for (const worker of ['registry', 'chat'] as const) {
    it(`${worker}: an OpenAPI 3.1 document that documents every route the Worker serves`, () => {
      const doc = docs[worker];
      expect(doc.openapi).toBe('3.1.0');
      expect(doc.info.title).toMatch(/Rendezvous/);
      expect(doc.servers[0].url).toBe(worker === 'registry' ? registry : chat);
      const undocumented = operations(doc).filter(({ op }) => op['x-undocumented']);
      expect(undocumented.map(({ method, path }) => `${method} ${path}`)).toEqual([]);
      for (const { op } of operations(doc)) {
        expect(op.summary).toBeTruthy();
        expect(Object.keys(op.responses).length).toBeGreaterThan(0);
      }
    });

    it(`${worker}: every documented operation exists and answers a sample request with a documented status and body`, async () => {
      const doc = docs[worker];
      const samples = worker === 'registry' ? registrySamples() : chatSamples();
      const documented = operations(doc).map(({ method, path }) => `${method} ${path}`);
      expect(documented.sort()).toEqual(Object.keys(samples).sort());
      for (const { method, path, op } of operations(doc)) {
        await check(worker === 'registry' ? registry : chat, doc, method, path, op, await samples[`${method} ${path}`]!(), key);
      }
    });

    it(`${worker}: operations that need a key refuse a request without one with their documented 401 body`, async () => {
      const doc = docs[worker];
      const samples = worker === 'registry' ? registrySamples() : chatSamples();
      const guarded = operations(doc).filter(({ op }) => op.security?.some((scheme: Json) => 'bearer' in scheme));
      expect(guarded.length).toBeGreaterThan(worker === 'registry' ? 15 : 3);
      for (const { method, path, op } of guarded) {
        const sample = await samples[`${method} ${path}`]!();
        const { Authorization: _dropped, ...headers } = sample.headers ?? {};
        await check(worker === 'registry' ? registry : chat, doc, method, path, op, { ...sample, headers, status: 401 }, null);
      }
    });
  }

  it('chat: a streamed completion sends events of the documented chunk schema, then [DONE]', async () => {
    const media = docs.chat.paths['/v1/chat/completions'].post.responses['200'].content['text/event-stream'];
    const chunk = z.fromJSONSchema(inline(media['x-event-schema'], docs.chat.components.schemas));
    const response = await post(`${chat}/v1/chat/completions`, key, {
      model: 'llm1',
      messages: [{ role: 'user', content: 'echo: streamed' }],
      stream: true,
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = (await response.text())
      .split('\n\n')
      .filter(Boolean)
      .map((event) => event.replace(/^data: /, ''));
    expect(events.at(-1)).toBe('[DONE]');
    expect(events.length).toBeGreaterThan(3);
    for (const event of events.slice(0, -1)) expect(chunk.safeParse(JSON.parse(event)).success, event).toBe(true);
  });

  it('the Workers answer the client’s origin (CORS) and no other', async () => {
    for (const [base, path] of [
      [registry, '/v1/search/agents'],
      [chat, '/v1/chat/completions'],
    ] as const) {
      const allowed = await fetch(base + path, {
        method: 'OPTIONS',
        headers: {
          Origin: 'http://localhost:5174',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization,content-type',
        },
      });
      expect(allowed.status).toBe(204);
      expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:5174');
      expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
      const other = await fetch(base + path, {
        method: 'OPTIONS',
        headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'POST' },
      });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    }
  });
});
