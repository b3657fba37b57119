import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { Identity } from '../../lib/identity/index.ts';
import { createAccount, createKey, revokeKey } from '../../workers/registry/src/keys/store.ts';
import { call, createAgent, GREETER, json, putCode, start } from './helpers.ts';
import { envelopeText, Greeting, submit } from './peer.ts';

/** What issue 22's hostile review found holding, kept holding (the rest: access, messaging and lifecycle tests). */
describe('what held keeps holding', () => {
  it('revoked and expired keys are 401 on every hosting route', async () => {
    const accountId = await createAccount(env.REGISTRY_DB, `held ${crypto.randomUUID()}`);
    const live = (await createKey(env.REGISTRY_DB, { accountId, name: 'live', permissions: ['hosting'], maxLiveKeys: 25 }))!;
    const agent = await createAgent(live.key, 'held');
    const revoked = (await createKey(env.REGISTRY_DB, { accountId, name: 'revoked', permissions: ['hosting'], maxLiveKeys: 25 }))!;
    await revokeKey(env.REGISTRY_DB, revoked.id, accountId);
    const expired = (await createKey(
      env.REGISTRY_DB,
      { accountId, name: 'expired', permissions: ['hosting'], maxLiveKeys: 25, expiresAt: new Date(Date.now() + 1000) },
      new Date(Date.now() - 60_000),
    ))!;
    await new Promise((resolve) => setTimeout(resolve, 1100));
    for (const key of [revoked.key, expired.key]) {
      for (const [method, path] of [
        ['GET', '/v1/hosting/agents'],
        ['GET', `/v1/hosting/agents/${agent.address}`],
        ['POST', `/v1/hosting/agents/${agent.address}/start`],
        ['GET', '/v1/hosting/secrets'],
        ['PUT', `/v1/hosting/agents/${agent.address}/storage/k`],
      ] as const) {
        expect((await call(key, method, path, method === 'PUT' ? { value: '1' } : undefined)).status, `${method} ${path}`).toBe(401);
      }
    }
  });

  it('a replayed envelope is 409; 51 files are 422', async () => {
    const accountId = await createAccount(env.REGISTRY_DB, `held ${crypto.randomUUID()}`);
    const key = (await createKey(env.REGISTRY_DB, { accountId, name: 'k', permissions: ['hosting'], maxLiveKeys: 25 }))!.key;
    const agent = await createAgent(key, 'replay target');
    await putCode(key, agent.address, GREETER);
    await start(key, agent.address);
    const text = envelopeText(Identity.fromSeed('held replayer', 0), agent.address, Greeting.digest, { text: 'once' });
    expect((await submit(text)).status).toBe(200);
    expect((await submit(text)).status).toBe(409);

    const files = Object.fromEntries(Array.from({ length: 51 }, (_, index) => [`f${index}.ts`, 'export {};\n']));
    const code = JSON.stringify(Object.entries(files).map(([name, value]) => ({ name, value, language: 'typescript' })));
    expect(
      (await json<{ detail: unknown[] }>(call(key, 'PUT', `/v1/hosting/agents/${agent.address}/code`, { code }), 422)).detail,
    ).toHaveLength(1);
  });
});
