import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEnvelope, serializeEnvelope } from '../../lib/envelope/index.ts';
import { Identity } from '../../lib/identity/index.ts';
import type { AgentLog, HostedAgent } from '../../schemas/hosting.ts';
import { createDevKey } from '../../scripts/dev/bootstrap-key.ts';
import { readDevVars } from '../../scripts/stack/dev-vars.ts';
import { INSPECTOR_PORTS } from '../../scripts/stack/ports.ts';
import { createTempStack, type TempStack } from './helpers/temp-stack.ts';

/**
 * Issue 22's probes, as the hostile review ran them against `npm start`: tenant B uploads hosted code that
 * reaches for the stack's loopback ports and inspectors, and code that loops forever, while tenant A's agent
 * must keep answering; code that takes memory without end, binary (metered, stopped) and JavaScript heap (which
 * local workerd cannot limit: the runtime is started again); the submit endpoint gets a body larger than it
 * takes; an account creates agents past its quota. Run inside `unshare -n` (the standard ports).
 */

/** Whether something accepts TCP connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const EXPLOIT = `import { defineAgent } from 'rendezvous/agent';
const agent = defineAgent({ name: 'exploit' });
const PROBES = ['http://127.0.0.1:8787/health', 'http://127.0.0.1:8788/health', 'http://127.0.0.1:8789/health',
  'http://127.0.0.1:9331/json', 'http://127.0.0.1:9335/json', 'http://localhost:8787/v1/keys', 'http://[::1]:8789/health'];
agent.onStartup(async (ctx) => {
  const answers = {};
  for (const url of PROBES) {
    try {
      const response = await fetch(url);
      answers[url] = response.status + ' ' + (await response.text()).slice(0, 200);
    } catch (error) {
      answers[url] = 'threw ' + String(error).slice(0, 200);
    }
  }
  await ctx.storage.set('answers', answers);
});
export default agent;
`;

/** B's memory probes (finding 7): binary memory the guest meters, and a JavaScript heap it cannot see. */
const HOG = (handler: string) => `import { defineAgent, z } from 'rendezvous/agent';
const agent = defineAgent({ name: 'hog' });
const kept = [];
agent.onPayload(z.object({ go: z.literal(true) }), () => { ${handler} });
export default agent;
`;

const RUNAWAY = `import { defineAgent, z } from 'rendezvous/agent';
const agent = defineAgent({ name: 'runaway' });
agent.onPayload(z.object({ go: z.literal(true) }), () => { while (true) {} });
export default agent;
`;

const ECHO = `import { defineAgent, z } from 'rendezvous/agent';
const agent = defineAgent({ name: 'echo' });
agent.onPayload(z.object({ text: z.string() }), (_ctx, _sender, payload) => ({ echoed: payload.text }));
export default agent;
`;

describe('npm start against a hostile tenant (issue 22)', () => {
  let temp: TempStack;
  let base: string;
  let keyA: string;
  let keyB: string;

  beforeAll(async () => {
    temp = await createTempStack();
    for (const name of ['registry', 'vault', 'hosting'] as const) await temp.stack.start(name);
    base = temp.stack.urls.registry;
    const adminToken = readDevVars(join(temp.dir, 'secrets', 'registry.dev.vars')).ADMIN_TOKEN!;
    keyA = (await createDevKey({ registryUrl: base, adminToken, permissions: ['hosting'] })).key;
    keyB = (await createDevKey({ registryUrl: base, adminToken, permissions: ['hosting'] })).key;
  });
  afterAll(async () => {
    await temp?.dispose();
  });

  const api = async <T>(key: string, method: string, path: string, body?: unknown, status = 200): Promise<T> => {
    const response = await fetch(`${base}/v1/hosting${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    expect(response.status, text).toBe(status);
    return JSON.parse(text) as T;
  };

  async function agentWith(key: string, name: string, code: string): Promise<string> {
    const agent = await api<HostedAgent>(key, 'POST', '/agents', { name });
    await api(key, 'PUT', `/agents/${agent.address}/code`, {
      code: JSON.stringify([{ name: 'agent.ts', value: code, language: 'typescript' }]),
    });
    await api(key, 'POST', `/agents/${agent.address}/start`);
    return agent.address;
  }

  const sender = Identity.fromSeed('e2e hostile sender', 0);
  async function message(address: string, payload: unknown): Promise<{ status: number; ms: number }> {
    const envelope = buildEnvelope({
      sender,
      target: address,
      session: crypto.randomUUID(),
      schemaDigest: 'model:e2e',
      payload,
      expires: Math.floor(Date.now() / 1000) + 300,
      nonce: Date.now(),
    });
    const started = Date.now();
    const response = await fetch(`${base}/v1/hosting/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: serializeEnvelope(envelope),
      signal: AbortSignal.timeout(30_000),
    });
    await response.body?.cancel();
    return { status: response.status, ms: Date.now() - started };
  }

  it('findings 1 and 2: no inspector port is open, and hosted code reaches no loopback service', async () => {
    for (const port of Object.values(INSPECTOR_PORTS)) expect(await listening(port), `inspector port ${port}`).toBe(false);
    const address = await agentWith(keyB, 'exploit', EXPLOIT);
    let answers: Record<string, string> | null = null;
    await expect
      .poll(
        async () => {
          const response = await fetch(`${base}/v1/hosting/agents/${address}/storage/answers`, {
            headers: { authorization: `Bearer ${keyB}` },
          });
          answers = response.ok ? (JSON.parse(((await response.json()) as { value: string }).value) as Record<string, string>) : null;
          return answers;
        },
        { timeout: 20_000, interval: 250 },
      )
      .not.toBeNull();
    for (const [url, answer] of Object.entries(answers!)) expect(answer, url).toMatch(/^403 .*egress policy/);
  });

  it("finding 4: B's infinite loop does not stall A's agent; B is stopped and its logs say why", async () => {
    const a = await agentWith(keyA, 'tenant A echo', ECHO);
    let normalMs = 0;
    for (let index = 0; index < 3; index += 1) normalMs = Math.max(normalMs, (await message(a, { text: 'warm' })).ms);
    const b = await agentWith(keyB, 'runaway', RUNAWAY);
    let settled = false;
    const runaway = message(b, { go: true }).finally(() => {
      settled = true;
    });
    const began = Date.now();
    let slowestMs = 0;
    while (!settled || Date.now() - began < 1_000) {
      const answer = await message(a, { text: 'still there?' });
      expect(answer.status).toBe(200);
      slowestMs = Math.max(slowestMs, answer.ms);
    }
    expect(slowestMs).toBeLessThan(normalMs + 1_500);
    expect((await runaway).status).toBe(500);
    const logs = await api<AgentLog[]>(keyB, 'GET', `/agents/${b}/logs/latest`);
    expect(logs.some((line) => line.log_entry.startsWith('stopped: ') && line.log_entry.includes('budget'))).toBe(true);
    expect((await api<HostedAgent>(keyB, 'GET', `/agents/${b}`)).running).toBe(false);
    expect((await fetch(`${temp.stack.urls.hosting}/health`)).status).toBe(200);
  });

  it('finding 5: an account creates no more agents than its quota (429 with detail); what it has stays', async () => {
    const key = (
      await createDevKey({
        registryUrl: base,
        adminToken: readDevVars(join(temp.dir, 'secrets', 'registry.dev.vars')).ADMIN_TOKEN!,
        permissions: ['hosting'],
      })
    ).key;
    let created = 0;
    for (;;) {
      const response = await fetch(`${base}/v1/hosting/agents`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `agent ${created}`, readme: 'x'.repeat(50_000) }),
      });
      if (response.status !== 200) {
        const text = await response.text();
        expect(response.status, text).toBe(429);
        expect((JSON.parse(text) as { detail: string }).detail).toContain('HOSTED_AGENTS_PER_ACCOUNT');
        break;
      }
      await response.body?.cancel();
      created += 1;
      expect(created).toBeLessThanOrEqual(100);
    }
    expect(created).toBe(20);
    expect((await api<{ items: unknown[] }>(key, 'GET', '/agents?limit=100')).items).toHaveLength(20);
  });

  it("finding 7: B's 2 GB of buffers stop B at its memory budget; A answers within its normal latency and hosting stays up", async () => {
    const a = await agentWith(keyA, 'tenant A echo', ECHO);
    let normalMs = 0;
    for (let index = 0; index < 3; index += 1) normalMs = Math.max(normalMs, (await message(a, { text: 'warm' })).ms);
    const b = await agentWith(
      keyB,
      'buffer hog',
      HOG('for (let i = 0; i < 64; i++) kept.push(new Uint8Array(32 * 1024 * 1024).fill(1)); return {};'),
    );
    expect((await message(b, { go: true })).status).toBe(500);
    let slowestMs = 0;
    for (let index = 0; index < 5; index += 1) {
      const answer = await message(a, { text: 'still there?' });
      expect(answer.status).toBe(200);
      slowestMs = Math.max(slowestMs, answer.ms);
    }
    expect(slowestMs).toBeLessThan(normalMs + 1_500);
    const logs = await api<AgentLog[]>(keyB, 'GET', `/agents/${b}/logs/latest`);
    expect(logs.some((line) => line.log_entry.startsWith('stopped: ') && line.log_entry.includes('memory budget'))).toBe(true);
    expect((await api<HostedAgent>(keyB, 'GET', `/agents/${b}`)).running).toBe(false);
    expect((await fetch(`${temp.stack.urls.hosting}/health`)).status).toBe(200);
  });

  it("finding 7: B's JavaScript heap, which local workerd cannot limit, brings the runtime down; it is started again and A answers", async () => {
    const a = await agentWith(keyA, 'tenant A echo', ECHO);
    expect((await message(a, { text: 'warm' })).status).toBe(200);
    // 160 MB of heap a message, kept: V8's heap limit (about 1.4 GB here) aborts the whole runtime within ten.
    const b = await agentWith(keyB, 'heap hog', HOG('kept.push(new Array(2e7).fill(1.5)); return { held: kept.length };'));
    let crashed = false;
    for (let index = 0; index < 20 && !crashed; index += 1) crashed = (await message(b, { go: true })).status === 503;
    expect(crashed).toBe(true);
    await expect.poll(async () => (await message(a, { text: 'back?' })).status, { timeout: 60_000, interval: 1_000 }).toBe(200);
    expect((await fetch(`${temp.stack.urls.hosting}/health`)).status).toBe(200);
  });

  it('finding 8: /v1/hosting/submit refuses an oversized body without reading it whole', async () => {
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 4 * 1024 * 1024) return new Promise<void>(() => {});
        sent += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
      },
    });
    const response = await fetch(`${base}/v1/hosting/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: endless,
      duplex: 'half',
      signal: AbortSignal.timeout(20_000),
    } as RequestInit);
    expect(response.status).toBe(413);
  });
});
