import { zValidator } from '@hono/zod-validator';
import type { Context, Env, MiddlewareHandler } from 'hono';
import type { z, ZodType } from 'zod';
import type { $ZodError } from 'zod/v4/core';
import { ApiError } from './api-error.ts';
import { describeZodError } from './errors.ts';

/** How a route family refuses a request its validator cannot take. */
export interface Refusals {
  /** The value does not match the schema. */
  invalid(error: $ZodError, target: Target): ApiError;
  /** The body is not JSON. */
  malformed(): ApiError;
}

/** The platform's: a 400 naming the failing field. */
const platformRefusals: Refusals = {
  invalid(error) {
    const { message, param } = describeZodError(error);
    return new ApiError({ status: 400, message, type: 'invalid_request_error', param, code: 'invalid_parameter' });
  },
  malformed: () => new ApiError({ status: 400, message: 'Malformed JSON in request body', type: 'invalid_request_error' }),
};

/** The request parts routes validate. */
type Target = 'json' | 'query' | 'param';

type Validated<T extends Target, Schema extends ZodType<object>> = {
  in: { [K in T]: z.input<Schema> };
  out: { [K in T]: z.output<Schema> };
};

/**
 * The body as JSON whatever its label (curl's `-d` says form-urlencoded, fetch's string body text/plain):
 * a body is never ignored for its Content-Type. No body at all is `{}` unless it claims to be JSON.
 */
async function jsonBody(c: Context, refusals: Refusals): Promise<unknown> {
  // Bytes decoded here: the runtime warns when text() is called on a body not labelled as text.
  const text = new TextDecoder().decode(await c.req.arrayBuffer());
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
function partOf(target: Target, c: Context, refusals: Refusals): unknown {
  switch (target) {
    case 'json':
      return jsonBody(c, refusals);
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
): Promise<z.output<Schema>> {
  const result = await schema.safeParseAsync(await partOf(target, c, refusals));
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
): MiddlewareHandler<E, P, Validated<T, Schema>> {
  if (target !== 'json') {
    return zValidator(target, schema, (result) => {
      if (!result.success) throw refusals.invalid(result.error, target);
    }) as MiddlewareHandler<E, P, Validated<T, Schema>>;
  }
  return async (c, next) => {
    c.req.addValidatedData(target, await validPart(c, target, schema, refusals));
    await next();
  };
}
