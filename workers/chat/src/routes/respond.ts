import type { Context } from 'hono';
import { ApiError } from '../../../../lib/http/api-error.ts';
import type { ChatApp } from '../auth/require-key.ts';
import { rateLimitHeaders } from '../limits/headers.ts';
import type { LimitState } from '../limits/rolling-window.ts';
import { meterFor } from '../limits/meter.ts';

/** The key's current x-ratelimit-* headers, for responses that did not pass through admission. */
export async function currentLimitHeaders(c: Context<ChatApp>): Promise<Record<string, string>> {
  const key = c.get('key');
  return rateLimitHeaders(await meterFor(c.env, key.keyId).peek(key.limits));
}

/**
 * A completion's failure as the error to throw: an ApiError as it is, anything else a logged 500; with the
 * key's rate-limit headers (from its admission, else its current state), which every authenticated answer carries.
 */
export async function limitedError(c: Context<ChatApp>, error: unknown, state?: LimitState): Promise<ApiError> {
  const failure = error instanceof ApiError ? error : internalError(error);
  const headers = state ? rateLimitHeaders(state) : await currentLimitHeaders(c);
  for (const [name, value] of Object.entries(headers)) failure.headers.set(name, value);
  return failure;
}

function internalError(error: unknown): ApiError {
  console.error('completion failed', error);
  return new ApiError({ status: 500, message: 'internal error', code: 'internal_error', cause: error });
}
