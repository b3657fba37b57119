import { env, SELF } from 'cloudflare:test';
import { expect, vi } from 'vitest';
import { createAccount, createKey } from '../../workers/registry/src/keys/store.ts';
import type { Permission } from '../../schemas/keys.ts';
import type { AgentLog, HostedAgent } from '../../schemas/hosting.ts';

const BASE = 'http://hosting.test';

/** A new account with one key (the hosting permission unless told otherwise); returns the key's token. */
export async function accountKey(permissions: Permission[] = ['hosting']): Promise<string> {
  const accountId = await createAccount(env.REGISTRY_DB, `hosting test ${crypto.randomUUID()}`);
  return (await createKey(env.REGISTRY_DB, { accountId, name: 'test', permissions, maxLiveKeys: 25 }))!.key;
}

/** A call to the hosting API with a key; a body that is a string is sent as is. */
export function call(key: string | null, method: string, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  return SELF.fetch(`${BASE}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export async function json<T>(response: Promise<Response> | Response, status = 200): Promise<T> {
  const answered = await response;
  const text = await answered.text();
  expect(answered.status, text).toBe(status);
  return JSON.parse(text) as T;
}

/** Hosted code as Agentverse sends it: a string holding the JSON list of files. */
export function codeOf(files: Record<string, string>, language = 'typescript'): string {
  return JSON.stringify(Object.entries(files).map(([name, value]) => ({ name, value, language })));
}

export async function createAgent(key: string, name = 'test agent', readme = `# ${name}\n`): Promise<HostedAgent> {
  return json<HostedAgent>(call(key, 'POST', '/v1/hosting/agents', { name, readme }));
}

export async function putCode(key: string, address: string, files: Record<string, string>): Promise<string> {
  return (await json<{ digest: string }>(call(key, 'PUT', `/v1/hosting/agents/${address}/code`, { code: codeOf(files) }))).digest;
}

export async function start(key: string, address: string): Promise<HostedAgent> {
  return json<HostedAgent>(call(key, 'POST', `/v1/hosting/agents/${address}/start`));
}

async function logs(key: string, address: string): Promise<AgentLog[]> {
  return json<AgentLog[]>(call(key, 'GET', `/v1/hosting/agents/${address}/logs/latest`));
}

/** Waits until the agent's logs hold a line containing `text`; returns that line. */
export async function logLine(key: string, address: string, text: string, timeout = 10_000): Promise<AgentLog> {
  let found: AgentLog | undefined;
  await vi.waitFor(
    async () => {
      found = (await logs(key, address)).find((line) => line.log_entry.includes(text));
      expect(found, `a log line with ${JSON.stringify(text)}`).toBeDefined();
    },
    { timeout, interval: 100 },
  );
  return found!;
}

/** Whether the agent's record says it runs (a stopped agent's says false). */
export async function isRunning(key: string, address: string): Promise<boolean> {
  return (await json<HostedAgent>(call(key, 'GET', `/v1/hosting/agents/${address}`))).running;
}

export async function storageValue(key: string, address: string, item: string): Promise<string | null> {
  const response = await call(key, 'GET', `/v1/hosting/agents/${address}/storage/${encodeURIComponent(item)}`);
  if (response.status === 404) return null;
  return (await json<{ value: string }>(response)).value;
}

/** A greeter: typed Greeting → Reply, a counter in storage, a secret read on demand, a logger line. */
export const GREETER = {
  'agent.ts': `import { defineAgent, model, z } from 'rendezvous/agent';
import { greetingText } from './text.ts';

export const Greeting = model('Greeting', z.object({ text: z.string() }));
export const Reply = model('Reply', z.object({ text: z.string(), count: z.number() }));

const agent = defineAgent({ name: 'greeter' });

agent.onMessage(Greeting, async (ctx, sender, message) => {
  const count = ((await ctx.storage.get<number>('count')) ?? 0) + 1;
  await ctx.storage.set('count', count);
  ctx.logger.info('greeted by', sender, 'with', message.text);
  const suffix = (await ctx.secrets.get('SUFFIX')) ?? '';
  await ctx.send(sender, Reply({ text: greetingText(message.text) + suffix, count }));
});

agent.onPayload(z.object({ request: z.string() }), async (ctx, _sender, payload) => {
  return { status: 'received', length: payload.request.length };
});

export default agent;
`,
  'text.ts': `export function greetingText(name: string): string { return 'hello, ' + name; }
`,
};
