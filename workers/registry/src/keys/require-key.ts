import { createMiddleware } from 'hono/factory';
import { bearerToken } from '../../../../lib/api-keys/key-token.ts';
import { ApiError } from '../../../../lib/http/api-error.ts';
import type { Permission } from '../../../../schemas/keys.ts';
import { type AuthenticatedKey, authenticate } from './authenticate.ts';

export type KeyEnv = { Bindings: { DB: D1Database }; Variables: { key: AuthenticatedKey } };

/** The refusal of a key: 401 for a missing, unknown, revoked or expired one, 403 for one without the permission. */
export function keyRefusal(status: 401 | 403, message: string): ApiError {
  return status === 403
    ? new ApiError({ status, message, code: 'insufficient_permission' })
    : new ApiError({ status, message, code: 'invalid_api_key' });
}

/** Requires `Authorization: Bearer <key>` for a key with `permission` (or any of several); the key is then `c.get('key')`. */
export function requireKey(permission: Permission | readonly Permission[]) {
  return createMiddleware<KeyEnv>(async (c, next) => {
    const result = await authenticate(c.env.DB, bearerToken(c.req.header('authorization')), permission);
    if (!result.ok) throw keyRefusal(result.status, result.message);
    const { ok: _ok, ...key } = result;
    c.set('key', key);
    await next();
  });
}
