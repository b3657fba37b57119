import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { jsonError } from '../http/errors.ts';
import type { Permission } from '../../schemas/keys.ts';
import { type AuthenticatedKey, authenticate } from './authenticate.ts';
import { bearerToken } from './tokens.ts';

export type KeyEnv = { Bindings: { DB: D1Database }; Variables: { key: AuthenticatedKey } };

/** How a refused request is answered; the platform's error body unless a route family needs another shape. */
export type AuthFailure = (c: Context, status: 401 | 403, message: string) => Response;

export const platformAuthFailure: AuthFailure = (c, status, message) =>
  status === 403
    ? jsonError(c, 403, message, 'permission_error', null, 'insufficient_permission')
    : jsonError(c, 401, message, 'authentication_error', null, 'invalid_api_key');

/** Requires `Authorization: Bearer <key>` for a key with `permission` (or any of several); the key is then `c.get('key')`. */
export function requireKey(permission: Permission | readonly Permission[], onFailure: AuthFailure = platformAuthFailure) {
  return createMiddleware<KeyEnv>(async (c, next) => {
    const result = await authenticate(c.env.DB, bearerToken(c.req.header('authorization')), permission);
    if (!result.ok) return onFailure(c, result.status, result.message);
    const { ok: _ok, ...key } = result;
    c.set('key', key);
    await next();
  });
}
