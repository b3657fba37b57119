import { env } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { KeyCheck } from '../../lib/rpc-contracts/index.ts';
import { ADMIN_TOKEN, api, json, migrate, newKey } from './helpers.ts';

beforeAll(migrate);

const keyService = () =>
  (exports as unknown as { KeyService: { authenticate(token: string, permission: string): Promise<KeyCheck> } }).KeyService;

describe('API keys (/v1/keys)', () => {
  it('the admin token creates a key for a new account; the secret is shown once and never listed', async () => {
    const created = await newKey(['read', 'write'], { limits: { requests_per_minute: 5, tokens_per_minute: 1000 } });
    expect(created.key).toMatch(/^rdv_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({
      permissions: ['read', 'write'],
      limits: { requests_per_minute: 5, tokens_per_minute: 1000 },
      expires_at: null,
    });

    const listed = await api(`/v1/keys?account_id=${created.account_id}`, { token: ADMIN_TOKEN });
    expect(listed.status).toBe(200);
    const { keys } = await json<{ keys: Record<string, unknown>[] }>(listed);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ id: created.id, prefix: `rdv_${created.id}` });
    expect(JSON.stringify(keys)).not.toContain(created.key);
    expect(keys[0]).not.toHaveProperty('key');

    const row = await env.DB.prepare('SELECT secret_hash FROM api_keys WHERE id = ?').bind(created.id).first<{ secret_hash: string }>();
    expect(row?.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.secret_hash).not.toContain(created.key.split('_').pop()!);
  });

  it('a key with the keys permission manages only its own account', async () => {
    const manager = await newKey(['keys', 'read']);
    const other = await newKey(['read']);
    const made = await api('/v1/keys', {
      method: 'POST',
      token: manager.key,
      json: { name: 'child', permissions: ['read'], expires_in_days: 30 },
    });
    expect(made.status).toBe(201);
    const child = await json<{ account_id: string; expires_at: string }>(made);
    expect(child.account_id).toBe(manager.account_id);
    expect(Date.parse(child.expires_at)).toBeGreaterThan(Date.now() + 29 * 86_400_000);

    const foreign = await api('/v1/keys', {
      method: 'POST',
      token: manager.key,
      json: { name: 'x', permissions: ['read'], account_id: other.account_id },
    });
    expect(foreign.status).toBe(403);
    expect(await json(foreign)).toMatchObject({ error: { type: 'permission_error', param: 'account_id' } });

    const listed = await json<{ keys: { account_id: string }[] }>(await api('/v1/keys', { token: manager.key }));
    expect(listed.keys.length).toBe(2);
    expect(listed.keys.every((key) => key.account_id === manager.account_id)).toBe(true);

    expect((await api(`/v1/keys/${other.id}`, { method: 'DELETE', token: manager.key })).status).toBe(404);
    expect((await api('/v1/keys', { token: other.key })).status).toBe(403);
  });

  it('refuses key management without the admin token or a keys key (401, JSON)', async () => {
    for (const token of [null, 'wrong-admin-token', 'rdv_0000000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']) {
      const response = await api('/v1/keys', { method: 'POST', token, json: { name: 'x', permissions: ['read'] } });
      expect(response.status).toBe(401);
      expect(await json(response)).toMatchObject({ error: { type: 'authentication_error', code: 'invalid_api_key' } });
    }
  });

  it('validates key requests (400 naming the field)', async () => {
    const bad = await api('/v1/keys', { method: 'POST', token: ADMIN_TOKEN, json: { name: 'x', permissions: ['root'] } });
    expect(bad.status).toBe(400);
    expect(await json(bad)).toMatchObject({ error: { param: 'permissions.0' } });
    const badId = await api('/v1/keys/not-a-key-id', { method: 'DELETE', token: ADMIN_TOKEN });
    expect(badId.status).toBe(400);
    const unknownAccount = await api('/v1/keys', {
      method: 'POST',
      token: ADMIN_TOKEN,
      json: { name: 'x', permissions: ['read'], account_id: 'nope' },
    });
    expect(unknownAccount.status).toBe(404);
  });

  it('a deleted key is refused at once, by HTTP and by KeyService', async () => {
    const key = await newKey(['read', 'chat']);
    const search = () => api('/v1/search/agents', { method: 'POST', token: key.key, json: {} });
    expect((await search()).status).toBe(200);
    expect(await keyService().authenticate(key.key, 'chat')).toMatchObject({ ok: true, keyId: key.id, accountId: key.account_id });

    const deleted = await api(`/v1/keys/${key.id}`, { method: 'DELETE', token: ADMIN_TOKEN });
    expect(deleted.status).toBe(200);
    expect(await json(deleted)).toMatchObject({ id: key.id, revoked: true });

    const refused = await search();
    expect(refused.status).toBe(401);
    expect(await json(refused)).toMatchObject({ error: { message: 'API key revoked' } });
    expect(await keyService().authenticate(key.key, 'chat')).toEqual({ ok: false, status: 401, message: 'API key revoked' });
    expect((await api(`/v1/keys/${key.id}`, { method: 'DELETE', token: ADMIN_TOKEN })).status).toBe(404);
    expect((await json<{ keys: unknown[] }>(await api(`/v1/keys?account_id=${key.account_id}`, { token: ADMIN_TOKEN }))).keys).toHaveLength(
      0,
    );
  });

  it('a deletion the chat Worker cannot be told of answers 503 and leaves the key live (the stand-in fails for ids starting dead)', async () => {
    const created = await newKey(['read', 'chat']);
    const id = 'dead000000000001';
    await env.DB.prepare('UPDATE api_keys SET id = ? WHERE id = ?').bind(id, created.id).run();
    const key = created.key.replace(created.id, id);

    const refused = await api(`/v1/keys/${id}`, { method: 'DELETE', token: ADMIN_TOKEN });
    expect(refused.status).toBe(503);
    expect(await json(refused)).toMatchObject({ error: { code: 'revocation_undelivered' } });
    expect(await keyService().authenticate(key, 'chat')).toMatchObject({ ok: true, keyId: id });
    expect(
      (await json<{ keys: { id: string }[] }>(await api(`/v1/keys?account_id=${created.account_id}`, { token: ADMIN_TOKEN }))).keys.map(
        (k) => k.id,
      ),
    ).toEqual([id]);
  });

  it('PATCH renames a key and changes its limits (null: the defaults again); KeyService answers the new limits', async () => {
    const key = await newKey(['read', 'chat'], { limits: { requests_per_minute: 5 } });
    const renamed = await api(`/v1/keys/${key.id}`, { method: 'PATCH', token: ADMIN_TOKEN, json: { name: 'renamed' } });
    expect(renamed.status).toBe(200);
    const renamedKey = await json(renamed);
    expect(renamedKey).toMatchObject({ id: key.id, name: 'renamed', limits: { requests_per_minute: 5 }, permissions: ['read', 'chat'] });
    expect(renamedKey).not.toHaveProperty('key');

    const limited = await api(`/v1/keys/${key.id}`, {
      method: 'PATCH',
      token: ADMIN_TOKEN,
      json: { limits: { requests_per_minute: 60, tokens_per_minute: 5000 } },
    });
    expect(await json(limited)).toMatchObject({ name: 'renamed', limits: { requests_per_minute: 60, tokens_per_minute: 5000 } });
    expect(await keyService().authenticate(key.key, 'chat')).toMatchObject({
      ok: true,
      limits: { requests_per_minute: 60, tokens_per_minute: 5000 },
    });

    const reset = await api(`/v1/keys/${key.id}`, { method: 'PATCH', token: ADMIN_TOKEN, json: { limits: null } });
    expect(await json(reset)).toMatchObject({ limits: null });
    const listed = await json<{ keys: { id: string; name: string; limits: unknown }[] }>(
      await api(`/v1/keys?account_id=${key.account_id}`, { token: ADMIN_TOKEN }),
    );
    expect(listed.keys).toEqual([expect.objectContaining({ id: key.id, name: 'renamed', limits: null })]);
  });

  it('PATCH: only the caller’s own live keys (404 otherwise), a keys key may, and every bad body is a 400 naming the field', async () => {
    const manager = await newKey(['keys', 'chat']);
    const own = await json<{ id: string }>(
      await api('/v1/keys', { method: 'POST', token: manager.key, json: { name: 'child', permissions: ['chat'] } }),
    );
    const other = await newKey(['chat']);
    expect((await api(`/v1/keys/${own.id}`, { method: 'PATCH', token: manager.key, json: { name: 'mine' } })).status).toBe(200);
    const foreign = await api(`/v1/keys/${other.id}`, { method: 'PATCH', token: manager.key, json: { name: 'theirs' } });
    expect(foreign.status).toBe(404);
    expect(await json(foreign)).toMatchObject({ error: { code: 'unknown_key', param: 'id' } });
    expect((await api(`/v1/keys/${other.id}`, { method: 'PATCH', token: other.key, json: { name: 'x' } })).status).toBe(403);

    expect((await api(`/v1/keys/${own.id}`, { method: 'DELETE', token: manager.key })).status).toBe(200);
    expect((await api(`/v1/keys/${own.id}`, { method: 'PATCH', token: manager.key, json: { name: 'gone' } })).status).toBe(404);

    const cases: [unknown, string][] = [
      [{}, ''],
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ limits: { requests_per_minute: 0 } }, 'limits.requests_per_minute'],
      [{ limits: { tokens_per_minute: 1.5 } }, 'limits.tokens_per_minute'],
      [{ limits: { burst: 3 } }, 'limits'],
      [{ permissions: ['read'] }, ''],
    ];
    for (const [body, param] of cases) {
      const response = await api(`/v1/keys/${other.id}`, { method: 'PATCH', token: ADMIN_TOKEN, json: body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(((await json<{ error: { param: string | null } }>(response)).error.param ?? '').startsWith(param)).toBe(true);
    }
    expect((await api('/v1/keys/not-a-key-id', { method: 'PATCH', token: ADMIN_TOKEN, json: { name: 'x' } })).status).toBe(400);
    expect(await json(await api(`/v1/keys/${other.id}`, { method: 'PATCH', token: ADMIN_TOKEN, json: { name: 'x' } }))).toMatchObject({
      name: 'x',
    });
  });

  it('PATCH stores the change even when the chat Worker cannot be told (it applies there when its cached copy expires)', async () => {
    const created = await newKey(['chat']);
    const id = 'dead000000000002';
    await env.DB.prepare('UPDATE api_keys SET id = ? WHERE id = ?').bind(id, created.id).run();
    const response = await api(`/v1/keys/${id}`, { method: 'PATCH', token: ADMIN_TOKEN, json: { limits: { requests_per_minute: 9 } } });
    expect(response.status).toBe(200);
    expect(await keyService().authenticate(created.key.replace(created.id, id), 'chat')).toMatchObject({
      ok: true,
      limits: { requests_per_minute: 9 },
    });
  });

  it('an expired key is refused (401)', async () => {
    const key = await newKey(['read'], { expires_in_days: 1 });
    await env.DB.prepare('UPDATE api_keys SET expires_at = ? WHERE id = ?')
      .bind(new Date(Date.now() - 1000).toISOString(), key.id)
      .run();
    const response = await api('/v1/search/agents', { method: 'POST', token: key.key, json: {} });
    expect(response.status).toBe(401);
    expect(await json(response)).toMatchObject({ error: { message: 'API key expired' } });
  });

  it('a key with a wrong secret is refused like an unknown one', async () => {
    const key = await newKey(['read']);
    const tampered = `${key.key.slice(0, -1)}${key.key.endsWith('A') ? 'B' : 'A'}`;
    const response = await api('/v1/search/agents', { method: 'POST', token: tampered, json: {} });
    expect(response.status).toBe(401);
    expect(await json(response)).toMatchObject({ error: { message: 'invalid API key' } });
  });

  it('KeyService: 403 without the permission, limits for chat, 401 for garbage', async () => {
    const reader = await newKey(['read']);
    expect(await keyService().authenticate(reader.key, 'chat')).toMatchObject({
      ok: false,
      status: 403,
      message: expect.stringContaining('"chat"'),
    });
    const chatter = await newKey(['chat'], { limits: { requests_per_minute: 7 } });
    expect(await keyService().authenticate(chatter.key, 'chat')).toMatchObject({ ok: true, limits: { requests_per_minute: 7 } });
    expect(await keyService().authenticate('', 'chat')).toMatchObject({ ok: false, status: 401 });
    expect(await keyService().authenticate('Bearer nonsense', 'read')).toMatchObject({ ok: false, status: 401 });
    expect(await keyService().authenticate(chatter.key, 'admin' as 'chat')).toMatchObject({ ok: false, status: 403 });
  });

  it('search needs read: a write-only key gets 403 with a JSON reason', async () => {
    const writer = await newKey(['write']);
    const response = await api('/v1/search/agents', { method: 'POST', token: writer.key, json: {} });
    expect(response.status).toBe(403);
    expect(await json(response)).toMatchObject({ error: { type: 'permission_error', message: expect.stringContaining('"read"') } });
  });

  describe('a key manager cannot give itself more than the operator gave it', () => {
    const create = (token: string, body: Record<string, unknown>) =>
      api('/v1/keys', { method: 'POST', token, json: { name: 'minted', ...body } });

    it('limits are the operator’s: a keys key may not set or raise them, on itself or on keys it mints (403); minted keys inherit its limits', async () => {
      const manager = await newKey(['keys', 'chat'], { limits: { requests_per_minute: 10 } });
      const raised = await api(`/v1/keys/${manager.id}`, {
        method: 'PATCH',
        token: manager.key,
        json: { limits: { requests_per_minute: 1_000_000 } },
      });
      expect(raised.status).toBe(403);
      expect(await json(raised)).toMatchObject({ error: { type: 'permission_error', param: 'limits' } });
      expect((await api(`/v1/keys/${manager.id}`, { method: 'PATCH', token: manager.key, json: { limits: null } })).status).toBe(403);
      expect(await keyService().authenticate(manager.key, 'chat')).toMatchObject({ ok: true, limits: { requests_per_minute: 10 } });

      const minted = await create(manager.key, { permissions: ['chat'], limits: { requests_per_minute: 1_000_000 } });
      expect(minted.status).toBe(403);
      expect(await json(minted)).toMatchObject({ error: { param: 'limits' } });
      const plain = await create(manager.key, { permissions: ['chat'] });
      expect(plain.status).toBe(201);
      expect(await json(plain)).toMatchObject({ limits: { requests_per_minute: 10 } });
      // The operator still sets limits.
      expect(
        (await api(`/v1/keys/${manager.id}`, { method: 'PATCH', token: ADMIN_TOKEN, json: { limits: { requests_per_minute: 20 } } }))
          .status,
      ).toBe(200);
    });

    it('a minted key’s permissions are a subset of its minter’s (403 naming permissions)', async () => {
      const manager = await newKey(['keys', 'read']);
      const escalated = await create(manager.key, { permissions: ['read', 'chat'] });
      expect(escalated.status).toBe(403);
      expect(await json(escalated)).toMatchObject({ error: { type: 'permission_error', param: 'permissions' } });
      expect((await create(manager.key, { permissions: ['write'] })).status).toBe(403);
      expect((await create(manager.key, { permissions: ['read'] })).status).toBe(201);
      expect((await create(manager.key, { permissions: ['keys', 'read'] })).status).toBe(201);
    });

    it('a minted key lives no longer than its minter: it inherits the expiry, and a longer one is refused (403)', async () => {
      const manager = await newKey(['keys', 'read'], { expires_in_days: 10 });
      const longer = await create(manager.key, { permissions: ['read'], expires_in_days: 11 });
      expect(longer.status).toBe(403);
      expect(await json(longer)).toMatchObject({ error: { param: 'expires_in_days' } });
      const inherited = await json<{ expires_at: string }>(await create(manager.key, { permissions: ['read'] }));
      expect(inherited.expires_at).toBe(manager.expires_at);
      const shorter = await json<{ expires_at: string }>(await create(manager.key, { permissions: ['read'], expires_in_days: 3 }));
      expect(Date.parse(shorter.expires_at)).toBeLessThan(Date.parse(manager.expires_at!));
    });

    it('an account holds at most 25 live keys; minting beyond answers 403 too_many_keys, and revoking makes room', async () => {
      const manager = await newKey(['keys', 'read']);
      const made: string[] = [];
      for (let i = 1; i < 25; i += 1) {
        const response = await create(manager.key, { permissions: ['read'] });
        expect(response.status).toBe(201);
        made.push((await json<{ id: string }>(response)).id);
      }
      const over = await create(manager.key, { permissions: ['read'] });
      expect(over.status).toBe(403);
      expect(await json(over)).toMatchObject({ error: { code: 'too_many_keys' } });
      expect(
        (
          await api('/v1/keys', {
            method: 'POST',
            token: ADMIN_TOKEN,
            json: { name: 'x', permissions: ['read'], account_id: manager.account_id },
          })
        ).status,
      ).toBe(403);
      expect((await api(`/v1/keys/${made[0]}`, { method: 'DELETE', token: manager.key })).status).toBe(200);
      expect((await create(manager.key, { permissions: ['read'] })).status).toBe(201);
    }, 30_000);
  });
});
