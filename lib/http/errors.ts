import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { $ZodError } from 'zod/v4/core';
import { ApiError, asApiError, platformErrorBody } from './api-error.ts';

/** How an app writes an error's body for the callers of a route family (its status and headers are the error's). */
export type Dialect = (error: ApiError) => object;

declare module 'hono' {
  interface ContextVariableMap {
    /** The dialect `onError` and `notFound` answer in, set by `speaks`; the platform's when unset. */
    errorDialect: Dialect | undefined;
  }
}

/** The platform's dialect, OpenAI's `{error: {message, type, param, code}}`: every route that names no other. */
export const platformDialect: Dialect = platformErrorBody;

/** Middleware: errors of the routes it covers are answered in `dialect` (a route family whose callers expect another shape). */
export function speaks(dialect: Dialect) {
  return createMiddleware(async (c, next) => {
    c.set('errorDialect', dialect);
    await next();
  });
}

/** Answers `error` in the dialect of the request's route. */
function renderError(c: Context, error: ApiError): Response {
  const dialect = c.get('errorDialect') ?? platformDialect;
  error.headers.forEach((value, name) => {
    c.header(name, value);
  });
  return c.json(dialect(error), error.status);
}

/** Every app's `onError`: an ApiError as it says; anything else a logged 500 without internals (asApiError). */
export function onError(error: Error, c: Context): Response {
  return renderError(c, asApiError(error));
}

/** Every app's `notFound`, in the dialect of the path asked for. */
export function notFound(c: Context): Response {
  return renderError(
    c,
    new ApiError({
      status: 404,
      message: `no route for ${c.req.method} ${new URL(c.req.url).pathname}`,
      type: 'not_found',
    }),
  );
}

/** Names the first failing field of a zod error, for 400 bodies that say what to fix. */
export function describeZodError(error: $ZodError): { message: string; param: string | null } {
  const issue = error.issues[0];
  if (!issue) return { message: 'invalid request', param: null };
  if (issue.code === 'unrecognized_keys') {
    // OpenAI's words for a field the API does not know, naming the field.
    const param = [...issue.path, issue.keys[0]].map(String).join('.');
    return { message: `Unrecognized request argument supplied: ${param}`, param };
  }
  const param = issue.path.length ? issue.path.map(String).join('.') : null;
  return { message: param ? `${param}: ${issue.message}` : issue.message, param };
}
