import { zValidator } from '@hono/zod-validator';
import type { Context, Env, MiddlewareHandler } from 'hono';
import type { z, ZodType } from 'zod';
import type { $ZodError } from 'zod/v4/core';
import { ApiError } from './api-error.ts';
import { readBoundedText } from './bounded-body.ts';
import { describeZodError } from './errors.ts';

/**
 * The largest JSON body a route reads unless it names its own bound: a larger one is refused before it is
 * read whole (Workers would otherwise buffer up to 100 MB per request). Ample for every JSON contract here.
 */
const JSON_BODY_MAX_BYTES = 1024 * 1024;

/** How a route family refuses a request its validator cannot take. */
export interface Refusals {
  /** The value does not match the schema. */
  invalid(error: $ZodError, target: Target): ApiError;
  /** The body is not JSON. */
  malformed(): ApiError;
  /** The body is larger than `maxBytes`. */
  tooLarge(maxBytes: number): ApiError;
}

/** The platform's: a 400 naming the failing field. */
const platformRefusals: Refusals = {
  invalid(error) {
    const { message, param } = describeZodError(error);
    return new ApiError({ status: 400, message, type: 'invalid_request_error', param, code: 'invalid_parameter' });
  },
  malformed: () => new ApiError({ status: 400, message: 'Malformed JSON in request body', type: 'invalid_request_error' }),
  tooLarge: (maxBytes) =>
    new ApiError({ status: 413, message: `the request body is larger than ${maxBytes} bytes`, code: 'request_too_large' }),
};

/** The request parts routes validate. */
type Target = 'json' | 'query' | 'param';

type Validated<T extends Target, Schema extends ZodType<object>> = {
  in: { [K in T]: z.input<Schema> };
  out: { [K in T]: z.output<Schema> };
};

/**
 * The body as JSON whatever its label (curl's `-d` says form-urlencoded, fetch's string body text/plain):
 * a body is never ignored for its Content-Type. No body at all is `{}` unless it claims to be JSON. A body
 * over `maxBytes` is refused from its Content-Length, or as soon as it streams past the bound.
 */
async function jsonBody(c: Context, refusals: Refusals, maxBytes: number): Promise<unknown> {
  const text = await readBoundedText(c.req.raw, maxBytes);
  if (text === null) throw refusals.tooLarge(maxBytes);
  const mediaType = c.req.header('content-type')?.split(';')[0]?.trim() ?? '';
  const labelledJson = /^application\/([\w.-]+\+)?json$/i.test(mediaType);
  if (text === '' && !labelledJson) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw refusals.malformed();
  }
}

/** The part as Hono's validator reads it (a repeated query parameter is a list), the JSON body by `jsonBody`. */
function partOf(target: Target, c: Context, refusals: Refusals, maxBodyBytes: number): unknown {
  switch (target) {
    case 'json':
      return jsonBody(c, refusals, maxBodyBytes);
    case 'query':
      return Object.fromEntries(Object.entries(c.req.queries()).map(([name, values]) => [name, values.length === 1 ? values[0] : values]));
    case 'param':
      return c.req.param();
  }
}

/** A request part checked against its schema, or the route family's refusal thrown (an ApiError). */
export async function validPart<Schema extends ZodType<object>>(
  c: Context,
  target: Target,
  schema: Schema,
  refusals: Refusals = platformRefusals,
  maxBodyBytes = JSON_BODY_MAX_BYTES,
): Promise<z.output<Schema>> {
  const result = await schema.safeParseAsync(await partOf(target, c, refusals, maxBodyBytes));
  if (!result.success) throw refusals.invalid(result.error, target);
  return result.data;
}

/**
 * Middleware validating a request part with its zod schema (`c.req.valid(target)` in the route); a refusal is
 * thrown as an ApiError for the app's `onError` to render. Query and path go through `@hono/zod-validator`;
 * the JSON body does not: Hono's validator reads a body only when it is labelled JSON and takes any other as
 * `{}`, so a body sent without the label would be ignored, not refused (issue 13).
 */
export function validate<T extends Target, Schema extends ZodType<object>, E extends Env = Env, P extends string = string>(
  target: T,
  schema: Schema,
  refusals: Refusals = platformRefusals,
  maxBodyBytes = JSON_BODY_MAX_BYTES,
): MiddlewareHandler<E, P, Validated<T, Schema>> {
  if (target !== 'json') {
    return zValidator(target, schema, (result) => {
      if (!result.success) throw refusals.invalid(result.error, target);
    }) as MiddlewareHandler<E, P, Validated<T, Schema>>;
  }
  return async (c, next) => {
    c.req.addValidatedData(target, await validPart(c, target, schema, refusals, maxBodyBytes));
    await next();
  };
}
