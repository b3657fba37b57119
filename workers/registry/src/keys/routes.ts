import { Hono } from 'hono';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { validate } from '../../../../lib/http/validate.ts';
import {
  createKeyRequestSchema,
  keyIdParamSchema,
  keyListQuerySchema,
  type KeyList,
  type RevokedKey,
  updateKeyRequestSchema,
} from '../../../../schemas/keys.ts';
import { type KeyManagerApp, requireKeyManager } from './caller.ts';
import { noticeKeyChange, noticeRevocation } from './chat-notices.ts';
import { accountExists, createAccount, createKey, listKeys, liveKeyExists, revokeKey, updateKey } from './store.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Live keys an account may hold: enough for every agent and person, few enough that minting cannot multiply limits. */
const MAX_KEYS_PER_ACCOUNT = 25;

/** Limits are set by the operator (admin token) only: a key may neither give them to the keys it mints nor change them. */
const limitsAreTheOperators = () =>
  new ApiError({ status: 403, message: 'limits are set by the operator (admin token) only', param: 'limits', code: 'admin_only' });

/**
 * `/v1/keys`: create (the secret is shown once), list, rename or change limits, revoke. The admin token manages every account and
 * creates the first key of a new account; a key with the `keys` permission manages its own account's keys, but never gives more
 * than it holds: a key it mints has a subset of its permissions, lives no longer and carries its limits; limits are the operator's.
 */
export function keyRoutes() {
  const app = new Hono<KeyManagerApp>();
  app.use('*', requireKeyManager);

  app.post('/', validate('json', createKeyRequestSchema), async (c) => {
    const request = c.req.valid('json');
    const manager = c.get('manager');
    const now = new Date();
    const requestedExpiry = request.expires_in_days ? new Date(now.getTime() + request.expires_in_days * DAY_MS) : null;
    let accountId: string;
    let expiresAt = requestedExpiry;
    let limits = request.limits ?? null;
    if (manager.kind === 'account') {
      // A key mints only within itself: its own account, a subset of its permissions, its limits, its life.
      if (request.account_id && request.account_id !== manager.accountId) {
        throw new ApiError({
          status: 403,
          message: 'a key may create keys only for its own account',
          param: 'account_id',
          code: 'other_account',
        });
      }
      if (request.account_name)
        throw new ApiError({
          status: 403,
          message: 'only the admin token creates accounts',
          param: 'account_name',
          code: 'admin_only',
        });
      accountId = manager.accountId;
      const extra = request.permissions.filter((permission) => !manager.permissions.includes(permission));
      if (extra.length) {
        throw new ApiError({
          status: 403,
          message: `a key may mint only permissions it holds; this one lacks ${extra.join(', ')}`,
          param: 'permissions',
          code: 'permission_escalation',
        });
      }
      if (request.limits) throw limitsAreTheOperators();
      limits = manager.limits;
      const ceiling = manager.expiresAt ? new Date(manager.expiresAt) : null;
      if (ceiling && requestedExpiry && requestedExpiry > ceiling) {
        throw new ApiError({
          status: 403,
          message: `a key may not outlive the key that mints it (${manager.expiresAt})`,
          param: 'expires_in_days',
          code: 'outlives_minter',
        });
      }
      expiresAt = requestedExpiry ?? ceiling;
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
    const created = await createKey(
      c.env.DB,
      { accountId, name: request.name, permissions: request.permissions, limits, expiresAt, maxLiveKeys: MAX_KEYS_PER_ACCOUNT },
      now,
    );
    if (!created) {
      throw new ApiError({
        status: 403,
        message: `the account already holds ${MAX_KEYS_PER_ACCOUNT} live keys; revoke one first`,
        code: 'too_many_keys',
      });
    }
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
    const changes = c.req.valid('json');
    if (manager.kind === 'account' && changes.limits !== undefined) throw limitsAreTheOperators();
    const updated = await updateKey(c.env.DB, id, manager.kind === 'account' ? manager.accountId : null, changes);
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
    if (!(await liveKeyExists(c.env.DB, id, accountId)))
      throw new ApiError({
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
