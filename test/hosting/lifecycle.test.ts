import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { AgentCode, HostedAgent, HostedAgentSummary } from '../../schemas/hosting.ts';
import { accountKey, call, codeOf, createAgent, GREETER, json, logLine, putCode, start } from './helpers.ts';

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

const almanac = (address: string) => env.REGISTRY_API.fetch(`http://registry.test/v1/almanac/agents/${address}`);

describe('hosted agent lifecycle (Agentverse deploy order: create → code → start → logs)', () => {
  it('creates, uploads, starts, registers, lists, updates, stops, restarts and deletes', async () => {
    const key = await accountKey();
    const created = await createAgent(key, 'lifecycle greeter');
    expect(created).toMatchObject({ name: 'lifecycle greeter', running: false, compiled: null, code_digest: null, revision: 0 });
    expect(created.address).toMatch(/^agent1q/);
    expect(JSON.stringify(created)).not.toMatch(/seed/i);

    const empty = await json<AgentCode>(call(key, 'GET', `/v1/hosting/agents/${created.address}/code`));
    expect(empty).toEqual({ digest: null, code: null, timestamp: null });

    const code = codeOf(GREETER);
    const { digest } = await json<{ digest: string }>(call(key, 'PUT', `/v1/hosting/agents/${created.address}/code`, { code }));
    expect(digest).toBe(await sha256Hex(code));
    const stored = await json<AgentCode>(call(key, 'GET', `/v1/hosting/agents/${created.address}/code`));
    expect(stored.code).toBe(code);
    expect(stored.digest).toBe(digest);
    const uploaded = await json<HostedAgent>(call(key, 'GET', `/v1/hosting/agents/${created.address}`));
    expect(uploaded).toMatchObject({ revision: 1, compiled: null, running: false });

    const started = await start(key, created.address);
    expect(started).toMatchObject({ running: true, compiled: true, code_digest: digest });
    await logLine(key, created.address, 'registered in the registry');
    const entry = await json<{ status: string; endpoints: { url: string }[] }>(almanac(created.address));
    expect(entry.endpoints.map((endpoint) => endpoint.url)).toEqual(['http://registry.example.com/v1/hosting/submit']);
    expect(entry.status).not.toBe('inactive');

    const page = await json<{ items: HostedAgentSummary[]; next_cursor: string | null }>(call(key, 'GET', '/v1/hosting/agents'));
    expect(page.items.map((item) => item.address)).toEqual([created.address]);
    expect(page.items[0]).toMatchObject({ running: true, compiled: true });

    expect(
      await json(call(key, 'PUT', `/v1/hosting/agents/${created.address}`, { name: 'renamed greeter', short_description: 'greets' })),
    ).toEqual({});
    expect(await json<HostedAgent>(call(key, 'GET', `/v1/hosting/agents/${created.address}`))).toMatchObject({
      name: 'renamed greeter',
      short_description: 'greets',
      revision: 2,
    });

    const stopped = await json<HostedAgent>(call(key, 'POST', `/v1/hosting/agents/${created.address}/stop`));
    expect(stopped.running).toBe(false);
    await logLine(key, created.address, 'stopped');
    // Stopped, it signed itself inactive, as a uAgents agent does: the almanac says so at once, no probe needed.
    expect(await json<{ status: string }>(almanac(created.address))).toMatchObject({ status: 'inactive' });
    const restarted = await json<HostedAgent>(call(key, 'POST', `/v1/hosting/agents/${created.address}/restart`));
    expect(restarted.running).toBe(true);
    expect((await json<{ status: string }>(almanac(created.address))).status).not.toBe('inactive');

    expect(await json(call(key, 'DELETE', `/v1/hosting/agents/${created.address}/logs`))).toEqual({});
    expect(await json<unknown[]>(call(key, 'GET', `/v1/hosting/agents/${created.address}/logs/latest`))).toEqual([]);

    expect(await json(call(key, 'DELETE', `/v1/hosting/agents/${created.address}`))).toEqual({});
    expect((await call(key, 'GET', `/v1/hosting/agents/${created.address}`)).status).toBe(404);
    expect((await almanac(created.address)).status).toBe(404);
    const secrets = await env.DB.prepare('SELECT COUNT(*) AS n FROM hosted_secrets WHERE address = ?')
      .bind(created.address)
      .first<{ n: number }>();
    expect(secrets?.n).toBe(0);
  });

  it('is served under the registry base URL too ({base_url}/v1/hosting/…, forwarded over a service binding)', async () => {
    const key = await accountKey();
    const created = await createAgent(key, 'through the registry');
    const response = await env.REGISTRY_API.fetch(`http://registry.test/v1/hosting/agents/${created.address}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(await json<HostedAgent>(response)).toMatchObject({ address: created.address, name: 'through the registry' });
  });

  it("lists in Agentverse's sort orders (sort_by name, created, modified; a leading - descending; direction asc by default)", async () => {
    const key = await accountKey();
    const names = ['bravo', 'alpha', 'charlie'];
    const created: HostedAgent[] = [];
    // Apart by a few milliseconds, so that no two timestamps are equal.
    const apart = () => new Promise((resolve) => setTimeout(resolve, 5));
    for (const name of names) {
      created.push(await createAgent(key, name));
      await apart();
    }
    // Code uploaded in reverse order of creation: "modified" sorts the other way round from "created".
    for (const agent of [...created].reverse()) {
      await putCode(key, agent.address, GREETER);
      await apart();
    }
    const order = async (query: string) =>
      (await json<{ items: HostedAgentSummary[] }>(call(key, 'GET', `/v1/hosting/agents?${query}`))).items.map((agent) => agent.name);
    expect(await order('sort_by=name')).toEqual(['alpha', 'bravo', 'charlie']);
    expect(await order('sort_by=-name')).toEqual(['charlie', 'bravo', 'alpha']);
    expect(await order('sort_by=name&direction=desc')).toEqual(['charlie', 'bravo', 'alpha']);
    expect(await order('sort_by=created')).toEqual(names);
    expect(await order('sort_by=-created')).toEqual([...names].reverse());
    expect(await order('sort_by=modified')).toEqual([...names].reverse());
    expect(await order('sort_by=creation_timestamp&direction=desc')).toEqual([...names].reverse());
    const refused = await json<{ detail: { loc: unknown[] }[] }>(call(key, 'GET', '/v1/hosting/agents?sort_by=size'), 422);
    expect(refused.detail[0]!.loc).toEqual(['query', 'sort_by']);
  });

  it("takes an update with name null, as clients generated from Agentverse's OpenAPI send unset fields: the name stays", async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'kept name');
    expect(
      await json(call(key, 'PUT', `/v1/hosting/agents/${agent.address}`, { name: null, readme: '# new readme', avatar_url: null })),
    ).toEqual({});
    expect(await json<HostedAgent>(call(key, 'GET', `/v1/hosting/agents/${agent.address}`))).toMatchObject({
      name: 'kept name',
      readme: '# new readme',
    });
  });

  it('duplicates an agent: a new identity with the same code', async () => {
    const key = await accountKey();
    const original = await createAgent(key, 'original');
    const digest = await putCode(key, original.address, GREETER);
    const copy = await json<HostedAgent>(call(key, 'POST', `/v1/hosting/agents/${original.address}/duplicate`, { name: 'copy' }));
    expect(copy.address).not.toBe(original.address);
    expect((await json<AgentCode>(call(key, 'GET', `/v1/hosting/agents/${copy.address}/code`))).digest).toBe(digest);
    expect((await start(key, copy.address)).compiled).toBe(true);
  });

  it('code that fails to load: compiled false, the error in the logs, not running', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'broken');
    await putCode(key, agent.address, {
      'agent.ts': `import { defineAgent } from 'rendezvous/agent';\nthrow new Error('boom at load');\n`,
    });
    const started = await start(key, agent.address);
    expect(started).toMatchObject({ running: false, compiled: false, code_digest: null });
    expect((await logLine(key, agent.address, 'boom at load')).log_level).toBe('erro');
  });

  it('code with a syntax error: compiled false at upload, the compiler error in the logs', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'syntax');
    await putCode(key, agent.address, { 'agent.ts': 'const x: number = ;' });
    expect(await json<HostedAgent>(call(key, 'GET', `/v1/hosting/agents/${agent.address}`))).toMatchObject({
      compiled: false,
      running: false,
    });
    await logLine(key, agent.address, 'does not compile');
  });

  it('a main file that defines no agent fails to load with a message saying so', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'empty');
    await putCode(key, agent.address, { 'agent.ts': 'export const nothing = 1;' });
    expect((await start(key, agent.address)).compiled).toBe(false);
    await logLine(key, agent.address, 'defines no agent');
  });
});
