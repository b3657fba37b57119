import type { LimitState } from './rolling-window.ts';

/** OpenAI's duration style for reset headers: `250ms`, `12s`, `1.5s`. */
function duration(ms: number): string {
  if (ms < 1000) return `${Math.ceil(ms)}ms`;
  return `${Number((ms / 1000).toFixed(3))}s`;
}

/** The x-ratelimit-* headers (OpenAI's names) every authenticated response carries. */
export function rateLimitHeaders(state: LimitState): Record<string, string> {
  return {
    'x-ratelimit-limit-requests': String(state.limitRequests),
    'x-ratelimit-remaining-requests': String(state.remainingRequests),
    'x-ratelimit-reset-requests': duration(state.resetRequestsMs),
    'x-ratelimit-limit-tokens': String(state.limitTokens),
    'x-ratelimit-remaining-tokens': String(state.remainingTokens),
    'x-ratelimit-reset-tokens': duration(state.resetTokensMs),
  };
}
