import type { Context } from 'hono';
import { cors } from 'hono/cors';

/** Response headers the browser client reads (search mode, rate limits). */
const EXPOSED = [
  'x-search-mode',
  // The registry's D1 bookmarks: the client sends them back to read its own writes (docs/decisions/0205).
  'x-d1-bookmark',
  'retry-after',
  'x-ratelimit-limit-requests',
  'x-ratelimit-remaining-requests',
  'x-ratelimit-reset-requests',
  'x-ratelimit-limit-tokens',
  'x-ratelimit-remaining-tokens',
  'x-ratelimit-reset-tokens',
  // The chat Worker's id of each request, as OpenAI's (workers/chat/src/request-id.ts).
  'x-request-id',
];

/** The allowed origins: comma-separated, or `*` for any. */
function allowedOrigin(origin: string, allowed: string | undefined): string | null {
  const list = (allowed ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (list.includes('*')) return origin || '*';
  return list.includes(origin) ? origin : null;
}

const allowedOriginsVar = (env: { ALLOWED_ORIGINS?: string }) => env.ALLOWED_ORIGINS;

/**
 * The platform's one CORS policy, for the browser client on a Worker's public API: only the origins in the
 * Worker's `ALLOWED_ORIGINS` var (the router's: `CLIENT_ORIGIN`) may call it from a page (keys travel in the
 * Authorization header, never cookies). Preflights are answered here, before any key check.
 */
export function clientCors<Bindings extends object = { ALLOWED_ORIGINS?: string }>(
  originsOf: (env: Bindings) => string | undefined = allowedOriginsVar as (env: Bindings) => string | undefined,
) {
  return cors({
    origin: (origin, c: Context<{ Bindings: Bindings }>) => allowedOrigin(origin, originsOf(c.env)),
    allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    // X-Session-Id: a chat conversation with an agent continues across requests (llm1-agentic).
    // X-D1-Bookmark: the registry's reads start from the client's last write (docs/decisions/0205).
    allowHeaders: ['Authorization', 'Content-Type', 'Accept', 'X-Session-Id', 'X-D1-Bookmark'],
    exposeHeaders: EXPOSED,
    maxAge: 600,
  });
}
