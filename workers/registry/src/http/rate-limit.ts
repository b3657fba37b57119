import { createMiddleware } from 'hono/factory';
import { bearerToken, parseKeyToken } from '../../../../lib/api-keys/key-token.ts';
import { ApiError } from '../../../../lib/http/api-error.ts';
import type { RegistryApp } from '../app.ts';
import { detailDialect } from './detail.ts';

/** Paths whose callers are the Python SDKs: their errors are `{detail}`; every other route answers the platform's error shape. */
const SDK_PATHS = /^\/(v1\/almanac|v2\/almanac|v2\/agents|v1\/agents|v2\/identity|v1\/auth)(\/|$)/;
/** The binding's period (Cloudflare allows 10 or 60 seconds): the wait a refused caller is told. */
const PERIOD_SECONDS = '60';

/**
 * In front of every registry route (Cloudflare's Rate Limiting binding, generous limits): a keyed request
 * counts against its key, an anonymous one against its client IP. A request without either (a service
 * binding from another Worker of the platform) is not counted here.
 */
export const rateLimit = createMiddleware<RegistryApp>(async (c, next) => {
  // Whether the key is valid is the route's business: a token shaped like a key counts against that key.
  const keyId = parseKeyToken(bearerToken(c.req.header('authorization')) ?? '')?.id;
  const ip = c.req.header('cf-connecting-ip');
  const outcome = keyId
    ? await c.env.KEY_RATE_LIMIT.limit({ key: `key:${keyId}` })
    : ip
      ? await c.env.ANONYMOUS_RATE_LIMIT.limit({ key: `ip:${ip}` })
      : { success: true };
  if (outcome.success) return next();
  // Refused before any route's own dialect is set: the SDK paths get theirs here.
  if (SDK_PATHS.test(c.req.path)) c.set('errorDialect', detailDialect);
  throw new ApiError({
    status: 429,
    message: 'too many requests; retry after the time in retry-after',
    code: 'rate_limited',
    headers: { 'retry-after': PERIOD_SECONDS },
  });
});
