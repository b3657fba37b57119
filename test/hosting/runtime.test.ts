import { describe, expect, it } from 'vitest';
import type { HostedAgent, StoragePage } from '../../schemas/hosting.ts';
import { accountKey, call, createAgent, json, logLine, putCode, start, storageValue } from './helpers.ts';

/** Counts its interval runs in storage; `version` tells which code wrote last. */
const ticker = (version: string) => ({
  'agent.ts': `import { defineAgent } from 'rendezvous/agent';
const agent = defineAgent({ name: 'ticker' });
agent.onInterval({ period: 1 }, async (ctx) => {
  const ticks = ((await ctx.storage.get('ticks')) ?? 0) + 1;
  await ctx.storage.set('ticks', ticks);
  await ctx.storage.set('version', ${JSON.stringify(version)});
  ctx.logger.debug('tick', ticks);
});
export default agent;
`,
});

const ticks = async (key: string, address: string) => Number((await storageValue(key, address, 'ticks')) ?? 0);

describe('hosted agents at run time', () => {
  it('an interval handler fires on its period and writes storage; stop halts it', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'ticker');
    await putCode(key, agent.address, ticker('v1'));
    await start(key, agent.address);
    await expect.poll(() => ticks(key, agent.address), { timeout: 15_000, interval: 250 }).toBeGreaterThanOrEqual(2);
    expect((await logLine(key, agent.address, 'tick 1')).log_level).toBe('debg');

    await json(call(key, 'POST', `/v1/hosting/agents/${agent.address}/stop`));
    const frozen = await ticks(key, agent.address);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await ticks(key, agent.address)).toBe(frozen);
  });

  it('storage survives a restart and a code update; new code takes effect at once', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'survivor');
    await putCode(key, agent.address, ticker('v1'));
    await start(key, agent.address);
    await expect.poll(() => ticks(key, agent.address), { timeout: 15_000, interval: 250 }).toBeGreaterThanOrEqual(1);

    await json(call(key, 'POST', `/v1/hosting/agents/${agent.address}/restart`));
    const afterRestart = await ticks(key, agent.address);
    expect(afterRestart).toBeGreaterThanOrEqual(1);

    await putCode(key, agent.address, ticker('v2'));
    const updated = await json<HostedAgent>(call(key, 'GET', `/v1/hosting/agents/${agent.address}`));
    expect(updated).toMatchObject({ running: true, compiled: true, revision: 2 });
    await expect.poll(() => storageValue(key, agent.address, 'version'), { timeout: 15_000, interval: 250 }).toBe('"v2"');
    expect(await ticks(key, agent.address)).toBeGreaterThan(afterRestart);
  });

  it('the storage API reads and writes what the code sees', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'storage');
    const base = `/v1/hosting/agents/${agent.address}/storage`;
    expect(await json(call(key, 'PUT', `${base}/greeting`, { value: '"hi"' }))).toEqual({ key: 'greeting', value: '"hi"' });
    expect(await json(call(key, 'PUT', `${base}/${encodeURIComponent('a key/with slash')}`, { value: '1' }))).toEqual({
      key: 'a key/with slash',
      value: '1',
    });
    const page = await json<StoragePage>(call(key, 'GET', base));
    expect(page).toEqual({
      items: [
        { key: 'a key/with slash', value: '1' },
        { key: 'greeting', value: '"hi"' },
      ],
      next_cursor: null,
    });
    expect(await json(call(key, 'GET', `${base}/greeting`))).toEqual({ key: 'greeting', value: '"hi"' });
    expect(await json(call(key, 'DELETE', `${base}/greeting`))).toEqual({});
    expect((await call(key, 'GET', `${base}/greeting`)).status).toBe(404);

    await putCode(key, agent.address, {
      'agent.ts': `import { defineAgent } from 'rendezvous/agent';
const agent = defineAgent({ name: 'storage' });
agent.onStartup(async (ctx) => { await ctx.storage.set('seen', await ctx.storage.get('a key/with slash')); });
export default agent;
`,
    });
    await start(key, agent.address);
    await expect.poll(() => storageValue(key, agent.address, 'seen'), { timeout: 10_000, interval: 200 }).toBe('1');
  });

  it('secrets: set, listed masked, read by the code, deleted', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'secretive');
    const created = await json<{ name: string; secret: string }>(
      call(key, 'POST', '/v1/hosting/secrets', { address: agent.address, name: 'API_TOKEN', secret: 'tok-123' }),
    );
    expect(created).toMatchObject({ name: 'API_TOKEN', secret: '********' });
    const listed = await json<{ secrets: { name: string; secret: string; address: string }[] }>(call(key, 'GET', '/v1/hosting/secrets'));
    expect(listed.secrets).toEqual([expect.objectContaining({ address: agent.address, name: 'API_TOKEN', secret: '********' })]);
    expect(JSON.stringify(await json(call(key, 'GET', `/v1/hosting/${agent.address}/secrets`)))).not.toContain('tok-123');

    await putCode(key, agent.address, {
      'agent.ts': `import { defineAgent } from 'rendezvous/agent';
const agent = defineAgent({ name: 'secretive' });
agent.onStartup(async (ctx) => { await ctx.storage.set('token_length', (await ctx.secrets.get('API_TOKEN'))?.length ?? -1); });
export default agent;
`,
    });
    await start(key, agent.address);
    await expect.poll(() => storageValue(key, agent.address, 'token_length'), { timeout: 10_000, interval: 200 }).toBe('7');

    expect(await json(call(key, 'DELETE', `/v1/hosting/secrets/${agent.address}/API_TOKEN`))).toEqual({});
    expect((await json<{ secrets: unknown[] }>(call(key, 'GET', `/v1/hosting/${agent.address}/secrets`))).secrets).toEqual([]);
  });

  it('hosted code imports its own files and zod by name', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'modular');
    await putCode(key, agent.address, {
      'agent.ts': `import { defineAgent } from 'rendezvous/agent';
import { z } from 'zod';
import { double } from './lib/math.js';
const agent = defineAgent({ name: 'modular' });
agent.onStartup(async (ctx) => { await ctx.storage.set('result', z.number().parse(double(21))); });
export default agent;
`,
      'lib/math.js': 'export const double = (n) => n * 2;\n',
    });
    await start(key, agent.address);
    await expect.poll(() => storageValue(key, agent.address, 'result'), { timeout: 10_000, interval: 200 }).toBe('42');
  });
});
