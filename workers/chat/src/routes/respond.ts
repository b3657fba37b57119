import type { Context } from 'hono';
import { errorBody } from '../../../../lib/http/errors.ts';
import type { ChatApp } from '../auth/require-key.ts';
import { ChatError } from '../chat-error.ts';
import { rateLimitHeaders } from '../limits/headers.ts';
import type { LimitState } from '../limits/rolling-window.ts';
import { meterFor } from '../limits/meter.ts';

/** The key's current x-ratelimit-* headers, for responses that did not pass through admission. */
export async function currentLimitHeaders(c: Context<ChatApp>): Promise<Record<string, string>> {
  const key = c.get('key');
  return rateLimitHeaders(await meterFor(c.env, key.keyId).peek(key.limits));
}

/** A ChatError as the platform's error body, with the key's rate-limit headers and retry-after when due. */
export async function errorResponse(c: Context<ChatApp>, error: ChatError, state?: LimitState): Promise<Response> {
  const headers = state ? rateLimitHeaders(state) : await currentLimitHeaders(c);
  if (error.retryAfterSeconds !== null) headers['retry-after'] = String(error.retryAfterSeconds);
  return c.json(errorBody(error.message, error.type, error.param, error.code), error.status, headers);
}

export function asChatError(error: unknown): ChatError {
  if (error instanceof ChatError) return error;
  console.error('completion failed', error);
  return new ChatError(500, 'internal error', 'internal_error');
}
