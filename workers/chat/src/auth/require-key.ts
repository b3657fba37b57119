import { createMiddleware } from 'hono/factory';
import { parseKeyToken } from '../../../../lib/auth/tokens.ts';
import { jsonError } from '../../../../lib/http/errors.ts';
import { type KeyLimits, resolveLimits } from '../config/limits.ts';
import type { MeterKeyCheck } from '../limits/key-meter.ts';
import { meterFor } from '../limits/meter.ts';

export interface CallerKey {
  keyId: string;
  accountId: string;
  token: string;
  limits: KeyLimits;
}

export type ChatApp = { Bindings: ChatEnv; Variables: { key: CallerKey } };

/**
 * Every /v1 call needs `Authorization: Bearer <key>` for a registry key with the `chat` permission. The key's
 * own meter answers: it asks the registry once and remembers the verdict until the key is revoked.
 */
export const requireKey = createMiddleware<ChatApp>(async (c, next) => {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1];
  if (!token) {
    return jsonError(c, 401, 'missing API key: send Authorization: Bearer <API_KEY>', 'authentication_error', null, 'missing_api_key');
  }
  // The registry's own answer for a token that is not shaped like a key; no meter is made for it.
  const parsed = parseKeyToken(token);
  if (!parsed) return jsonError(c, 401, 'invalid API key', 'authentication_error', null, 'invalid_api_key');
  const check: MeterKeyCheck = await meterFor(c.env, parsed.id)
    .authenticate(token)
    .catch((error: unknown) => {
      console.error('key meter unreachable', error);
      return { ok: false, status: 503, message: 'the key meter is unreachable' } as const;
    });
  if (!check.ok) {
    if (check.status === 503) {
      return jsonError(c, 500, 'the key service is unreachable; try again shortly', 'server_error', null, 'auth_unavailable');
    }
    return check.status === 403
      ? jsonError(c, 403, check.message, 'permission_error', null, 'insufficient_permission')
      : jsonError(c, 401, check.message, 'authentication_error', null, 'invalid_api_key');
  }
  c.set('key', { keyId: check.keyId, accountId: check.accountId, token, limits: resolveLimits(c.env, check.limits) });
  await next();
});
