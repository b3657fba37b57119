import { createMiddleware } from 'hono/factory';
import { jsonError } from '../../../../lib/http/errors.ts';
import { type KeyLimits, resolveLimits } from '../config/limits.ts';
import type { KeyService } from './key-service.ts';

export interface CallerKey {
  keyId: string;
  accountId: string;
  token: string;
  limits: KeyLimits;
}

export type ChatApp = { Bindings: ChatEnv; Variables: { key: CallerKey } };

/** Every /v1 call needs `Authorization: Bearer <key>` for a registry key with the `chat` permission. */
export const requireKey = createMiddleware<ChatApp>(async (c, next) => {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1];
  if (!token) {
    return jsonError(c, 401, 'missing API key: send Authorization: Bearer <API_KEY>', 'authentication_error', null, 'missing_api_key');
  }
  let check: Awaited<ReturnType<KeyService['authenticate']>>;
  try {
    check = await (c.env.REGISTRY as unknown as KeyService).authenticate(token, 'chat');
  } catch (error) {
    console.error('key service unreachable', error);
    return jsonError(c, 500, 'the key service is unreachable; try again shortly', 'server_error', null, 'auth_unavailable');
  }
  if (!check.ok) {
    return check.status === 403
      ? jsonError(c, 403, check.message, 'permission_error', null, 'insufficient_permission')
      : jsonError(c, 401, check.message, 'authentication_error', null, 'invalid_api_key');
  }
  c.set('key', { keyId: check.keyId, accountId: check.accountId, token, limits: resolveLimits(c.env, check.limits) });
  await next();
});
