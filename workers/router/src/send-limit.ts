import { createMiddleware } from 'hono/factory';
import { ApiError } from '../../../lib/http/api-error.ts';

/** Seconds a refused client is told to wait: the binding's period (wrangler.toml). */
const RETRY_AFTER_SECONDS = 60;

/**
 * Each client (by CF-Connecting-IP, which Cloudflare sets at its edge) may send so many questions a minute:
 * every question spends the chat key, EDGAR's rate budget and the specialist's time.
 */
export const sendRequestLimit = createMiddleware<{ Bindings: RouterEnv }>(async (c, next) => {
  const client = c.req.header('cf-connecting-ip') ?? 'unknown';
  const { success } = await c.env.SEND_REQUEST_LIMIT.limit({ key: client });
  if (!success) {
    throw new ApiError({
      status: 429,
      message: 'too many questions from this client; wait a minute, then ask again',
      code: 'rate_limited',
      headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
    });
  }
  await next();
});
