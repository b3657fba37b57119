import { zValidator } from '@hono/zod-validator';
import type { Context, ValidationTargets } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError, ZodType } from 'zod';
import type { AuthFailure } from '../../../../lib/auth/index.ts';
import { describeZodError } from '../../../../lib/http/errors.ts';
import type { DetailError } from '../../../../schemas/registry.ts';

/**
 * The endpoints the Python SDKs call answer errors as `{detail}`: the SDK prints `detail` for 401, 406
 * and 409. Malformed data is 406 there, as the SDK expects.
 */
export function detail(c: Context, status: ContentfulStatusCode, message: string) {
  const body: DetailError = { detail: message };
  return c.json(body, status);
}

export const detailAuthFailure: AuthFailure = (c, status, message) => detail(c, status, message);

export function validateDetail<Target extends keyof ValidationTargets, Schema extends ZodType>(target: Target, schema: Schema) {
  return zValidator(target, schema, (result, c) => {
    if (!result.success) return detail(c, 406, `malformed ${target === 'param' ? 'path' : target}: ${describeZodError(result.error as unknown as ZodError).message}`);
  });
}

/** `onError` of the SDK-facing sub-apps: a body that is not JSON is malformed data (406); anything else is a logged 500. */
export function detailOnError(error: Error, c: Context) {
  if (error instanceof HTTPException) {
    return detail(c, error.status === 400 ? 406 : (error.status as ContentfulStatusCode), error.message || 'request failed');
  }
  console.error('unhandled error', error);
  return detail(c, 500, 'internal error');
}
