import { Hono } from 'hono';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { validate } from '../../../../lib/http/validate.ts';
import { createKeyRequestSchema, keyIdParamSchema, keyListQuerySchema, type KeyList, type RevokedKey, updateKeyRequestSchema } from '../../../../schemas/keys.ts';
import { type KeyManagerApp, requireKeyManager } from './caller.ts';
import { noticeKeyChange, noticeRevocation } from './chat-notices.ts';
import { accountExists, createAccount, createKey, listKeys, liveKeyExists, revokeKey, updateKey } from './store.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * `/v1/keys`: create (the secret is shown once), list, rename or change limits, revoke. The admin token manages every account and
 * creates the first key of a new account; a key with the `keys` permission manages its own account's keys.
 */
export function keyRoutes() {
  const app = new Hono<KeyManagerApp>();
  app.use('*', requireKeyManager);

  app.post('/', validate('json', createKeyRequestSchema), async (c) => {
    const request = c.req.valid('json');
    const manager = c.get('manager');
    let accountId: string;
    if (manager.kind === 'account') {
      if (request.account_id && request.account_id !== manager.accountId) {
        throw new ApiError({
          status: 403,
          message: 'a key may create keys only for its own account',
          param: 'account_id',
          code: 'other_account',
        });
      }
      if (request.account_name) throw new ApiError({
        status: 403,
        message: 'only the admin token creates accounts',
        param: 'account_name',
        code: 'admin_only',
      });
      accountId = manager.accountId;
    } else if (request.account_id) {
      if (!(await accountExists(c.env.DB, request.account_id))) {
        throw new ApiError({
          status: 404,
          message: `no account ${request.account_id}`,
          type: 'not_found',
          param: 'account_id',
          code: 'unknown_account',
        });
      }
      accountId = request.account_id;
    } else {
      accountId = await createAccount(c.env.DB, request.account_name ?? request.name);
    }
    const now = new Date();
    const created = await createKey(
      c.env.DB,
      {
        accountId,
        name: request.name,
        permissions: request.permissions,
        limits: request.limits ?? null,
        expiresAt: request.expires_in_days ? new Date(now.getTime() + request.expires_in_days * DAY_MS) : null,
      },
      now,
    );
    return c.json(created, 201);
  });

  app.get('/', validate('query', keyListQuerySchema), async (c) => {
    const manager = c.get('manager');
    const { account_id } = c.req.valid('query');
    if (manager.kind === 'account' && account_id && account_id !== manager.accountId) {
      throw new ApiError({
        status: 403,
        message: "a key may list only its own account's keys",
        param: 'account_id',
        code: 'other_account',
      });
    }
    const body: KeyList = { keys: await listKeys(c.env.DB, manager.kind === 'account' ? manager.accountId : (account_id ?? null)) };
    return c.json(body);
  });

  app.patch('/:id', validate('param', keyIdParamSchema), validate('json', updateKeyRequestSchema), async (c) => {
    const manager = c.get('manager');
    const { id } = c.req.valid('param');
    const updated = await updateKey(c.env.DB, id, manager.kind === 'account' ? manager.accountId : null, c.req.valid('json'));
    if (!updated) throw new ApiError({ status: 404, message: `no live key ${id}`, type: 'not_found', param: 'id', code: 'unknown_key' });
    // Stored first, then chat told to drop its cached copy, so the copy it reads next is the new one.
    // Not told (logged there): chat applies the change when its cached copy expires, within 5 minutes.
    await noticeKeyChange(c.env, id);
    return c.json(updated);
  });

  app.delete('/:id', validate('param', keyIdParamSchema), async (c) => {
    const manager = c.get('manager');
    const { id } = c.req.valid('param');
    const accountId = manager.kind === 'account' ? manager.accountId : null;
    if (!(await liveKeyExists(c.env.DB, id, accountId))) throw new ApiError({
      status: 404,
      message: `no live key ${id}`,
      type: 'not_found',
      param: 'id',
      code: 'unknown_key',
    });
    // The chat Worker caches verified keys: it hears of the revocation first, so once this answers 200 the key
    // is refused everywhere. If it cannot be told, the key stays live and the caller retries (nothing half-done).
    if (!(await noticeRevocation(c.env, id))) {
      throw new ApiError({
        status: 503,
        message: 'the key could not be revoked in the chat service just now; it is still live, try again',
        code: 'revocation_undelivered',
      });
    }
    const revokedAt = await revokeKey(c.env.DB, id, accountId);
    if (!revokedAt) throw new ApiError({ status: 404, message: `no live key ${id}`, type: 'not_found', param: 'id', code: 'unknown_key' });
    const body: RevokedKey = { id, revoked: true, revoked_at: revokedAt };
    return c.json(body);
  });

  return app;
}
