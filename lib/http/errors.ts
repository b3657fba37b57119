import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';

/** The platform's JSON error body: `{ error: { message, type, param, code } }` (OpenAI's shape, used everywhere). */
export interface ErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export function errorBody(message: string, type: string, param: string | null = null, code: string | null = null): ErrorBody {
  return { error: { message, type, param, code } };
}

export function jsonError(c: Context, status: ContentfulStatusCode, message: string, type: string, param: string | null = null, code: string | null = null) {
  return c.json(errorBody(message, type, param, code), status);
}

/** Names the first failing field of a zod error, for 400 bodies that say what to fix. */
export function describeZodError(error: ZodError): { message: string; param: string | null } {
  const issue = error.issues[0];
  if (!issue) return { message: 'invalid request', param: null };
  const param = issue.path.length ? issue.path.map(String).join('.') : null;
  return { message: param ? `${param}: ${issue.message}` : issue.message, param };
}

/** Hono `onError`: client mistakes Hono detects keep their status; anything else is a logged 500 without internals. */
export function onError(error: Error, c: Context) {
  if (error instanceof HTTPException) {
    return jsonError(c, error.status as ContentfulStatusCode, error.message || 'request failed', 'invalid_request_error');
  }
  console.error('unhandled error', error);
  return jsonError(c, 500, 'internal error', 'server_error');
}

export function notFound(c: Context) {
  return jsonError(c, 404, `no route for ${c.req.method} ${new URL(c.req.url).pathname}`, 'not_found');
}
