import { describe, expect, it } from 'vitest';
import { Identity } from '../../lib/identity/index.ts';
import { HOSTED_CODE_MAX_BYTES, type HostedAgentSummary } from '../../schemas/hosting.ts';
import { accountKey, call, codeOf, createAgent, GREETER, json, putCode, storageValue as storageValueOf } from './helpers.ts';

describe('who may do what', () => {
  it('needs a key with the hosting permission', async () => {
    expect(await json(call(null, 'GET', '/v1/hosting/agents'), 401)).toEqual({ detail: expect.stringContaining('missing API key') });
    expect(await json(call('rdv_nonsense', 'GET', '/v1/hosting/agents'), 401)).toEqual({ detail: 'invalid API key' });
    const readOnly = await accountKey(['read']);
    expect(await json(call(readOnly, 'GET', '/v1/hosting/agents'), 403)).toEqual({
      detail: expect.stringContaining('"hosting" permission'),
    });
  });

  it("an account sees and changes only its own agents: another account's address is a 404", async () => {
    const [alice, mallory] = [await accountKey(), await accountKey()];
    const agent = await createAgent(alice, 'alice agent');
    await putCode(alice, agent.address, GREETER);
    await json(call(alice, 'POST', '/v1/hosting/secrets', { address: agent.address, name: 'TOKEN', secret: 'alice-only' }));
    await json(call(alice, 'PUT', `/v1/hosting/agents/${agent.address}/storage/k`, { value: '"v"' }));

    expect((await json<{ items: HostedAgentSummary[] }>(call(mallory, 'GET', '/v1/hosting/agents'))).items).toEqual([]);
    const attempts: [string, string, unknown?][] = [
      ['GET', `/v1/hosting/agents/${agent.address}`],
      ['PUT', `/v1/hosting/agents/${agent.address}`, { name: 'taken' }],
      ['DELETE', `/v1/hosting/agents/${agent.address}`],
      ['GET', `/v1/hosting/agents/${agent.address}/code`],
      ['PUT', `/v1/hosting/agents/${agent.address}/code`, { code: codeOf(GREETER) }],
      ['POST', `/v1/hosting/agents/${agent.address}/start`],
      ['POST', `/v1/hosting/agents/${agent.address}/stop`],
      ['POST', `/v1/hosting/agents/${agent.address}/restart`],
      ['POST', `/v1/hosting/agents/${agent.address}/duplicate`, { name: 'copy' }],
      ['GET', `/v1/hosting/agents/${agent.address}/logs/latest`],
      ['DELETE', `/v1/hosting/agents/${agent.address}/logs`],
      ['GET', `/v1/hosting/agents/${agent.address}/storage`],
      ['GET', `/v1/hosting/agents/${agent.address}/storage/k`],
      ['PUT', `/v1/hosting/agents/${agent.address}/storage/k`, { value: '"x"' }],
      ['DELETE', `/v1/hosting/agents/${agent.address}/storage/k`],
      ['GET', `/v1/hosting/${agent.address}/secrets`],
      ['POST', '/v1/hosting/secrets', { address: agent.address, name: 'TOKEN', secret: 'stolen' }],
      ['DELETE', `/v1/hosting/secrets/${agent.address}/TOKEN`],
    ];
    for (const [method, path, body] of attempts) {
      expect((await call(mallory, method, path, body)).status, `${method} ${path}`).toBe(404);
    }
    expect((await json<{ secrets: unknown[] }>(call(mallory, 'GET', '/v1/hosting/secrets'))).secrets).toEqual([]);
    // Nothing of alice's changed.
    expect(await json(call(alice, 'GET', `/v1/hosting/agents/${agent.address}/storage/k`))).toEqual({ key: 'k', value: '"v"' });
    expect(await json(call(alice, 'GET', `/v1/hosting/agents/${agent.address}`))).toMatchObject({ name: 'alice agent', running: false });
    expect((await json<{ secrets: unknown[] }>(call(alice, 'GET', `/v1/hosting/${agent.address}/secrets`))).secrets).toHaveLength(1);
  });
});

describe('bad input gets a clear error and changes nothing', () => {
  it("code as an array instead of a string: 422 with FastAPI's detail list", async () => {
    const key = await accountKey();
    const agent = await createAgent(key);
    const body = await json<{ detail: { loc: unknown[]; msg: string; type: string }[] }>(
      call(key, 'PUT', `/v1/hosting/agents/${agent.address}/code`, { code: [{ name: 'agent.ts', value: '', language: 'typescript' }] }),
      422,
    );
    expect(body.detail[0]).toMatchObject({ loc: ['body', 'code'], type: expect.any(String), msg: expect.any(String) });
    expect(await json(call(key, 'GET', `/v1/hosting/agents/${agent.address}/code`))).toEqual({ digest: null, code: null, timestamp: null });
  });

  it('a language that does not run: 422 naming the languages that do', async () => {
    const key = await accountKey();
    const agent = await createAgent(key);
    const code = JSON.stringify([{ name: 'agent.rs', value: 'fn main() {}\n', language: 'rust' }]);
    const body = await json<{ detail: { loc: unknown[]; msg: string }[] }>(
      call(key, 'PUT', `/v1/hosting/agents/${agent.address}/code`, { code }),
      422,
    );
    expect(body.detail[0]).toMatchObject({
      loc: ['body', 'code', 0, 'language'],
      msg: 'rust code does not run on this platform; hosted agents run typescript, javascript, python',
    });
  });

  it('code above the size bound: 413', async () => {
    const key = await accountKey();
    const agent = await createAgent(key);
    const code = codeOf({ 'agent.ts': `// ${'x'.repeat(HOSTED_CODE_MAX_BYTES)}` });
    expect(await json(call(key, 'PUT', `/v1/hosting/agents/${agent.address}/code`, { code }), 413)).toEqual({
      detail: expect.stringContaining('larger than'),
    });
  });

  it('unknown addresses are 404s', async () => {
    const key = await accountKey();
    const nobody = Identity.fromSeed('not hosted anywhere', 0).address;
    for (const path of [
      `/v1/hosting/agents/${nobody}`,
      `/v1/hosting/agents/${nobody}/code`,
      `/v1/hosting/agents/not-an-address/logs/latest`,
    ]) {
      expect(await json(call(key, 'GET', path), 404)).toEqual({ detail: 'agent not found' });
    }
    expect((await call(key, 'POST', `/v1/hosting/agents/${nobody}/start`)).status).toBe(404);
  });

  it('bad secret names, bad bodies and starting without code', async () => {
    const key = await accountKey();
    const agent = await createAgent(key);
    const bad = await json<{ detail: { loc: unknown[] }[] }>(
      call(key, 'POST', '/v1/hosting/secrets', { address: agent.address, name: '1 bad-name', secret: 's' }),
      422,
    );
    expect(bad.detail[0]!.loc).toEqual(['body', 'name']);
    expect((await call(key, 'DELETE', `/v1/hosting/secrets/${agent.address}/not-an-identifier`)).status).toBe(422);
    expect((await call(key, 'POST', '/v1/hosting/agents', { readme: 'no name' })).status).toBe(422);
    expect((await call(key, 'POST', '/v1/hosting/agents', '{not json')).status).toBe(422);
    expect((await call(key, 'PUT', `/v1/hosting/agents/${agent.address}/storage/k`, { value: 3 })).status).toBe(422);
    expect((await call(key, 'GET', `/v1/hosting/agents/${agent.address}/storage/${'k'.repeat(600)}`)).status).toBe(422);
    expect(await json(call(key, 'POST', `/v1/hosting/agents/${agent.address}/start`), 409)).toEqual({
      detail: expect.stringContaining('no code yet'),
    });
    const files = JSON.stringify([{ name: '../escape.ts', value: '', language: 'typescript' }]);
    expect((await call(key, 'PUT', `/v1/hosting/agents/${agent.address}/code`, { code: files })).status).toBe(422);
    const reserved = JSON.stringify([{ name: 'zod', value: '', language: 'javascript' }]);
    expect((await call(key, 'PUT', `/v1/hosting/agents/${agent.address}/code`, { code: reserved })).status).toBe(422);
  });
});

describe('the sandbox', () => {
  it('hosted code reaches no private or loopback host: its fetch passes the platform URL policy', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'prober');
    await putCode(key, agent.address, {
      'agent.ts': `import { defineAgent } from 'rendezvous/agent';
const agent = defineAgent({ name: 'prober' });
agent.onStartup(async (ctx) => {
  const answers = [];
  for (const url of ['http://127.0.0.1:8787/health', 'http://10.0.0.1/', 'http://[::1]/', 'http://metadata.internal/']) {
    const response = await fetch(url);
    answers.push(response.status);
  }
  await ctx.storage.set('statuses', answers);
});
export default agent;
`,
    });
    await json(call(key, 'POST', `/v1/hosting/agents/${agent.address}/start`));
    await expect.poll(() => storageValueOf(key, agent.address, 'statuses'), { timeout: 10_000, interval: 200 }).toBe('[403,403,403,403]');
    const logs = await json<{ log_entry: string }[]>(call(key, 'GET', `/v1/hosting/agents/${agent.address}/logs/latest`));
    expect(logs.some((line) => line.log_entry.includes('outbound fetch refused'))).toBe(true);
  });
});
