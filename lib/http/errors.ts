import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { $ZodError, $ZodIssue, $ZodIssueInvalidType } from 'zod/v4/core';
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

/**
 * A union's failure in words that say what to fix, where zod says only "Invalid input": the form whose types the
 * value has (failing only its checks, else failing below the top), at its own path; else the types the field takes.
 */
function unionIssue(issue: $ZodIssue & { code: 'invalid_union' }): { path: PropertyKey[]; message: string } {
  const typeMismatch = (inner: $ZodIssue): inner is $ZodIssueInvalidType => inner.code === 'invalid_type' && inner.path.length === 0;
  const checksOnly = issue.errors.filter((form) => !form.some((inner) => inner.code === 'invalid_type'));
  const ofItsType = issue.errors.filter((form) => !form.some(typeMismatch));
  const inner = (checksOnly.length === 1 ? checksOnly[0] : ofItsType[0])?.[0];
  if (inner) return { path: [...issue.path, ...inner.path], message: inner.message };
  const expected = issue.errors.flatMap((form) => form.filter(typeMismatch).map((mismatch) => mismatch.expected));
  if (expected.length === 0) return { path: issue.path, message: issue.message };
  return { path: issue.path, message: `${issue.message}: expected ${[...new Set(expected)].join(' or ')}` };
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
  const { path, message } = issue.code === 'invalid_union' ? unionIssue(issue) : issue;
  const param = path.length ? path.map(String).join('.') : null;
  return { message: param ? `${param}: ${message}` : message, param };
}
