import { createMiddleware } from 'hono/factory';
import { bearerToken, parseKeyToken } from '../../../../lib/api-keys/key-token.ts';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { keyServiceUnreachable } from '../../../../lib/rpc-contracts/key-service-unreachable.ts';
import { type KeyLimits, resolveLimits } from '../config/limits.ts';
import type { ChatBindings } from '../env.ts';
import type { MeterKeyCheck } from '../limits/key-meter.ts';
import { meterFor } from '../limits/meter.ts';

interface CallerKey {
  keyId: string;
  accountId: string;
  token: string;
  limits: KeyLimits;
}

export type ChatApp = { Bindings: ChatBindings; Variables: { key: CallerKey } };

/**
 * Every /v1 call needs `Authorization: Bearer <key>` for a registry key with the `chat` permission. The key's
 * own meter answers: it asks the registry once and remembers the verdict until the key is revoked.
 */
export const requireKey = createMiddleware<ChatApp>(async (c, next) => {
  const token = bearerToken(c.req.header('authorization'));
  if (!token) {
    throw new ApiError({ status: 401, message: 'missing API key: send Authorization: Bearer <API_KEY>', code: 'missing_api_key' });
  }
  // The registry's own answer for a token that is not shaped like a key; no meter is made for it.
  const parsed = parseKeyToken(token);
  if (!parsed) throw new ApiError({ status: 401, message: 'invalid API key', code: 'invalid_api_key' });
  const check: MeterKeyCheck = await meterFor(c.env, parsed.id)
    .authenticate(token)
    .catch((error: unknown) => {
      throw keyServiceUnreachable(error);
    });
  if (!check.ok) {
    if (check.status === 503) throw keyServiceUnreachable(check.message);
    throw check.status === 403
      ? new ApiError({ status: 403, message: check.message, code: 'insufficient_permission' })
      : new ApiError({ status: 401, message: check.message, code: 'invalid_api_key' });
  }
  c.set('key', { keyId: check.keyId, accountId: check.accountId, token, limits: resolveLimits(c.env, check.limits) });
  await next();
});
