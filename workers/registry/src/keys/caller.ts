import { createMiddleware } from 'hono/factory';
import { bearerToken, sameSecret } from '../../../../lib/api-keys/key-token.ts';
import { ApiError } from '../../../../lib/http/api-error.ts';
import type { RegistryBindings } from '../app.ts';
import { type AuthenticatedKey, authenticate } from './authenticate.ts';
import { keyRefusal } from './require-key.ts';

/** Who manages keys: the deployment's admin (ADMIN_TOKEN) or a key of an account with the `keys` permission. */
type KeyManager = { kind: 'admin' } | ({ kind: 'account' } & AuthenticatedKey);

export type KeyManagerApp = { Bindings: RegistryBindings; Variables: { manager: KeyManager } };

/** The example file's placeholder (.dev.vars.example): a deployment that copied it has no admin secret. */
const PLACEHOLDER_ADMIN_TOKEN = 'replace-with-a-long-random-string';
const MIN_ADMIN_TOKEN_LENGTH = 16;

/** A deployment whose ADMIN_TOKEN is unset, the placeholder or too short has no admin: nothing matches it. */
function isAdmin(env: RegistryEnv, token: string): boolean {
  const admin = env.ADMIN_TOKEN;
  if (typeof admin !== 'string' || admin.length < MIN_ADMIN_TOKEN_LENGTH || admin === PLACEHOLDER_ADMIN_TOKEN) return false;
  return sameSecret(token, admin);
}

/** Operator-only routes: the deployment's admin token, nothing else (no API key, whatever its permissions). */
export const requireAdmin = createMiddleware<{ Bindings: RegistryEnv }>(async (c, next) => {
  const token = bearerToken(c.req.header('authorization'));
  if (!token)
    throw new ApiError({
      status: 401,
      message: 'missing admin token: send Authorization: Bearer <ADMIN_TOKEN>',
      code: 'missing_api_key',
    });
  if (!isAdmin(c.env, token))
    throw new ApiError({
      status: 403,
      message: 'only the deployment’s admin token may do this',
      code: 'admin_only',
    });
  await next();
});

export const requireKeyManager = createMiddleware<KeyManagerApp>(async (c, next) => {
  const token = bearerToken(c.req.header('authorization'));
  if (token && isAdmin(c.env, token)) {
    c.set('manager', { kind: 'admin' });
    return next();
  }
  const result = await authenticate(c.env.DB, token, 'keys');
  if (!result.ok) {
    throw result.status === 403
      ? keyRefusal(403, result.message)
      : keyRefusal(401, `${result.message} (key management needs the admin token or a key with the "keys" permission)`);
  }
  const { ok: _ok, ...key } = result;
  c.set('manager', { kind: 'account', ...key });
  await next();
});
