import { createScheduledController, env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { Identity } from '../../lib/identity/index.ts';
import worker from '../../workers/hosting/src/index.ts';
import { accountKey, call, createAgent, json, logLine, putCode, start, storageValue } from './helpers.ts';

/** The vault's keys in this project (vitest.config.ts): k2 current, v1 retired. */
const CURRENT_SECRET = 'hosting-test-vault-secret-2';
const RETIRED_SECRET = 'hosting-test-vault-secret';

/** Text as the hosting Worker sealed it before the vault: base64(iv ‖ AES-GCM), no prefix, under HOSTING_SEED_KEY. */
async function sealedBeforeTheVault(plain: string): Promise<string> {
  const raw = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`rendezvous hosting vault\u0000${RETIRED_SECRET}`));
  const key = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt']);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(plain)));
  return btoa(String.fromCharCode(...iv, ...sealed));
}

const sealedSeed = async (address: string) =>
  (await env.DB.prepare('SELECT sealed_seed FROM hosted_agents WHERE address = ?1').bind(address).first<{ sealed_seed: string }>())!
    .sealed_seed;
const sealedSecret = async (address: string, name: string) =>
  (await env.DB.prepare('SELECT sealed_value FROM hosted_secrets WHERE address = ?1 AND name = ?2').bind(address, name).first<{
    sealed_value: string;
  }>())!.sealed_value;

/** The hosting Worker's hourly cron, as the platform runs it. */
async function hourlyPass(): Promise<void> {
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: '41 * * * *' }), env);
}

const almanac = (address: string) => env.REGISTRY_API.fetch(`http://registry.test/v1/almanac/agents/${address}`);

/** Reads the secret TOKEN on startup into storage, where the test reads it back through the API. */
const READS_TOKEN = {
  'agent.ts': `import { defineAgent } from 'rendezvous/agent';
const agent = defineAgent({ name: 'vaulted' });
agent.onStartup(async (ctx) => { await ctx.storage.set('token', (await ctx.secrets.get('TOKEN')) ?? 'none'); });
export default agent;
`,
};

describe('the sealing keys live in the vault Worker', () => {
  it("the hosting Worker's env holds no sealing key, only the vault's binding", () => {
    const names = Object.keys(env);
    expect(names).toContain('VAULT');
    expect(names.filter((name) => /SEED_KEY|SEAL/i.test(name))).toEqual([]);
    const values = JSON.stringify(Object.values(env).filter((value) => typeof value === 'string'));
    expect(values).not.toContain(CURRENT_SECRET);
    expect(values).not.toContain(RETIRED_SECRET);
  });

  it('seeds and secrets are sealed under the current key, and open through the vault when the agent runs', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'vaulted');
    await json(call(key, 'POST', '/v1/hosting/secrets', { address: agent.address, name: 'TOKEN', secret: 'sealed-by-k2' }));
    expect(await sealedSeed(agent.address)).toMatch(/^v2\.k2\.[A-Za-z0-9+/=]+$/);
    expect(await sealedSecret(agent.address, 'TOKEN')).toMatch(/^v2\.k2\./);

    await putCode(key, agent.address, READS_TOKEN);
    await start(key, agent.address);
    // Registration signs the registry's challenge with the seed the vault opened.
    await logLine(key, agent.address, 'registered in the registry');
    expect((await almanac(agent.address)).status).toBe(200);
    await expect.poll(() => storageValue(key, agent.address, 'token'), { timeout: 10_000, interval: 200 }).toBe('"sealed-by-k2"');
  });

  it('text sealed before the vault opens with key v1, and the hourly pass re-seals it under the current key', async () => {
    const key = await accountKey();
    const created = await createAgent(key, 'vaulted');
    // An agent and a secret as the hosting Worker stored them before the vault: unprefixed, under the old key.
    const seed = 'a seed sealed before the vault';
    const address = Identity.fromSeed(seed, 0).address;
    const oldSeed = await sealedBeforeTheVault(seed);
    const oldSecret = await sealedBeforeTheVault('sealed-by-v1');
    await env.DB.batch([
      env.DB.prepare('UPDATE hosted_agents SET address = ?1, sealed_seed = ?2 WHERE address = ?3').bind(address, oldSeed, created.address),
      env.DB.prepare("INSERT INTO hosted_secrets (address, name, sealed_value, timestamp) VALUES (?1, 'TOKEN', ?2, ?3)").bind(
        address,
        oldSecret,
        new Date().toISOString(),
      ),
    ]);
    await putCode(key, address, READS_TOKEN);
    await start(key, address);
    await logLine(key, address, 'registered in the registry');
    expect((await almanac(address)).status).toBe(200);
    await expect.poll(() => storageValue(key, address, 'token'), { timeout: 10_000, interval: 200 }).toBe('"sealed-by-v1"');

    await hourlyPass();
    const resealedSeed = await sealedSeed(address);
    const resealedSecret = await sealedSecret(address, 'TOKEN');
    expect(resealedSeed).toMatch(/^v2\.k2\./);
    expect(resealedSecret).toMatch(/^v2\.k2\./);

    // The re-sealed values open as before: the agent restarts, registers as the same address and reads the same secret.
    await json(call(key, 'POST', `/v1/hosting/agents/${address}/stop`));
    await json(call(key, 'DELETE', `/v1/hosting/agents/${address}/storage/token`));
    await start(key, address);
    await expect.poll(() => storageValue(key, address, 'token'), { timeout: 10_000, interval: 200 }).toBe('"sealed-by-v1"');
    // A second pass finds nothing left under a retired key: the same text stays.
    await hourlyPass();
    expect(await sealedSeed(address)).toBe(resealedSeed);
    expect(await sealedSecret(address, 'TOKEN')).toBe(resealedSecret);
  });
});
