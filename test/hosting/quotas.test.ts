import { describe, expect, it } from 'vitest';
import type { AgentLog, HostedAgentSummary, StoragePage } from '../../schemas/hosting.ts';
import { accountKey, call, createAgent, json, logLine, putCode, start, storageValue } from './helpers.ts';

/** The hosting project's quotas (vitest.config.ts): 5 agents per account, 20 storage keys and 256 KiB per agent, 64 KiB of logs. */
const AGENTS = 5;
const KEYS = 20;

const storage = (address: string, key: string) => `/v1/hosting/agents/${address}/storage/${encodeURIComponent(key)}`;

describe('quotas per tenant', () => {
  it('agents per account: past the quota, creation and duplication are 429 with detail; the agents kept stay', async () => {
    const key = await accountKey();
    const statuses = await Promise.all(
      Array.from(
        { length: AGENTS + 3 },
        async (_, index) => (await call(key, 'POST', '/v1/hosting/agents', { name: `agent ${index}` })).status,
      ),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(AGENTS);
    expect(statuses.filter((status) => status === 429)).toHaveLength(3);
    const refused = await json<{ detail: string }>(call(key, 'POST', '/v1/hosting/agents', { name: 'one more' }), 429);
    expect(refused.detail).toContain(`${AGENTS} hosted agents`);
    const listed = await json<{ items: HostedAgentSummary[] }>(call(key, 'GET', '/v1/hosting/agents'));
    expect(listed.items).toHaveLength(AGENTS);
    expect((await call(key, 'POST', `/v1/hosting/agents/${listed.items[0]!.address}/duplicate`, { name: 'copy' })).status).toBe(429);

    await json(call(key, 'DELETE', `/v1/hosting/agents/${listed.items[0]!.address}`));
    await json(call(key, 'POST', '/v1/hosting/agents', { name: 'room again' }));
    expect((await createAgent(await accountKey(), 'another account is not counted')).address).toMatch(/^agent1q/);
  });

  it('storage keys per agent: the key past the quota is 507 with detail; stored values stay, and replacing one still works', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'keys');
    for (let index = 0; index < KEYS; index += 1)
      await json(call(key, 'PUT', storage(agent.address, `k${index}`), { value: String(index) }));
    const refused = await json<{ detail: string }>(call(key, 'PUT', storage(agent.address, 'one too many'), { value: '1' }), 507);
    expect(refused.detail).toContain('HOSTED_STORAGE_KEYS_PER_AGENT');
    expect(await storageValue(key, agent.address, 'one too many')).toBeNull();
    await json(call(key, 'PUT', storage(agent.address, 'k0'), { value: '"replaced"' }));
    const page = await json<StoragePage>(call(key, 'GET', `/v1/hosting/agents/${agent.address}/storage`));
    expect(page.items).toHaveLength(KEYS);
    expect(page.items.find((item) => item.key === 'k0')?.value).toBe('"replaced"');
    expect(page.items.find((item) => item.key === 'k19')?.value).toBe('19');
  });

  it('storage bytes per agent: a value that would pass the quota is 507 and changes nothing, through the API and from code', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'bytes');
    const big = JSON.stringify('x'.repeat(100 * 1024));
    await json(call(key, 'PUT', storage(agent.address, 'a'), { value: big }));
    await json(call(key, 'PUT', storage(agent.address, 'b'), { value: big }));
    const refused = await json<{ detail: string }>(call(key, 'PUT', storage(agent.address, 'c'), { value: big }), 507);
    expect(refused.detail).toContain('HOSTED_STORAGE_BYTES_PER_AGENT');
    await json(call(key, 'PUT', storage(agent.address, 'd'), { value: JSON.stringify('x'.repeat(50 * 1024)) }));
    expect(
      await json<{ detail: string }>(call(key, 'PUT', storage(agent.address, 'a'), { value: big + ' '.repeat(10 * 1024) }), 507),
    ).toEqual({
      detail: expect.stringContaining('nothing was changed'),
    });
    expect(await storageValue(key, agent.address, 'a')).toBe(big);

    await putCode(key, agent.address, {
      'agent.ts': `import { defineAgent } from 'rendezvous/agent';
const agent = defineAgent({ name: 'bytes' });
agent.onStartup(async (ctx) => {
  try {
    await ctx.storage.set('c', 'y'.repeat(100 * 1024));
    ctx.logger.info('stored past the quota');
  } catch (error) {
    ctx.logger.warning('refused: ' + error.message);
  }
});
export default agent;
`,
    });
    await start(key, agent.address);
    expect((await logLine(key, agent.address, 'refused: ')).log_entry).toContain('storage quota exceeded');
    expect(await storageValue(key, agent.address, 'c')).toBeNull();
    expect(await storageValue(key, agent.address, 'b')).toBe(big);
  });

  it('log volume per agent: the newest lines within the quota are kept, the oldest go first', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'chatty');
    await putCode(key, agent.address, {
      'agent.ts': `import { defineAgent } from 'rendezvous/agent';
const agent = defineAgent({ name: 'chatty' });
agent.onStartup(async (ctx) => {
  for (let index = 0; index < 150; index += 1) ctx.logger.info('line ' + index + ' ' + 'z'.repeat(1024));
  ctx.logger.info('last line');
});
export default agent;
`,
    });
    await start(key, agent.address);
    await logLine(key, agent.address, 'last line');
    const lines = await json<AgentLog[]>(call(key, 'GET', `/v1/hosting/agents/${agent.address}/logs/latest`));
    const bytes = lines.reduce((total, line) => total + new TextEncoder().encode(line.log_entry).byteLength, 0);
    expect(bytes).toBeLessThanOrEqual(64 * 1024);
    expect(lines.some((line) => line.log_entry.startsWith('line 0 '))).toBe(false);
    expect(lines.some((line) => line.log_entry.startsWith('line 149 '))).toBe(true);
  });
});
