import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiError } from '../../../../lib/http/api-error.ts';

/**
 * A provider failure with the status the gateway answers: 422 the model cannot serve this request
 * (unavailable, input refused), 429 rate limited or out of capacity, 503 overloaded or timed out, 500 our own
 * misconfiguration (a bad upstream key is not the caller's fault). `retryAfterSeconds`: when to try again.
 */
export function providerError(
  status: ContentfulStatusCode,
  message: string,
  code: string,
  retryAfterSeconds: number | null = null,
): ApiError {
  const headers = retryAfterSeconds === null ? undefined : { 'retry-after': String(retryAfterSeconds) };
  return new ApiError({ status, message, code, headers });
}

/**
 * Maps an OpenAI-compatible upstream's HTTP status to ours. The upstream's own error text (which can name
 * its hosts, accounts or a fragment of its key) is logged, never answered: callers get a stable message.
 */
export function fromUpstreamStatus(status: number, detail: string, retryAfter: string | null): ApiError {
  console.error(`chat: upstream answered ${status}`, detail);
  const seconds = retryAfter && Number.isFinite(Number(retryAfter)) ? Math.ceil(Number(retryAfter)) : null;
  if (status === 429)
    return providerError(429, 'the upstream provider is rate limiting the gateway', 'upstream_rate_limited', seconds ?? 1);
  if (status === 401 || status === 403)
    return providerError(500, 'the gateway is not authorised by its upstream provider', 'upstream_auth_failed');
  if (status === 404) return providerError(422, 'model unavailable upstream', 'model_unavailable');
  if (status === 400 || status === 422) return providerError(422, 'the upstream provider rejected the request', 'upstream_rejected');
  if (status === 503) return providerError(503, 'the upstream provider is overloaded', 'upstream_overloaded', seconds ?? 1);
  return providerError(422, `model unavailable (upstream answered ${status})`, 'model_unavailable');
}

/**
 * Maps a Workers AI binding error. Its errors carry numeric codes in the message
 * (`3040: Capacity temporarily exceeded`, `5007: No such model`, `3036: daily limit`, `5006`/`8001` bad input).
 */
export function fromWorkersAiError(error: unknown): ApiError {
  const message = error instanceof Error ? error.message : String(error);
  console.error('chat: Workers AI failed', message);
  const code = /\b(\d{4})\b/.exec(message)?.[1];
  if (code === '3040' || /capacity/i.test(message)) return providerError(429, 'Workers AI is out of capacity', 'capacity_exceeded', 1);
  if (code === '3036' || /limit/i.test(message)) return providerError(429, 'Workers AI limit reached', 'upstream_rate_limited', 60);
  if (code === '5007' || /no such model/i.test(message)) return providerError(422, 'model unavailable', 'model_unavailable');
  if (code === '5006' || code === '8001' || /input/i.test(message))
    return providerError(422, 'Workers AI rejected the input', 'upstream_rejected');
  if (/timeout|timed out/i.test(message)) return providerError(503, 'Workers AI timed out', 'upstream_timeout', 1);
  return providerError(503, 'Workers AI failed', 'upstream_error', 1);
}
