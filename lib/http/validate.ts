import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type { ZodType } from 'zod';
import { describeZodError, errorBody } from './errors.ts';

/**
 * `@hono/zod-validator` with the platform's 400 body naming the failing field. A JSON body that does not
 * parse is caught by Hono itself and reaches `onError` as a 400.
 */
export function validate<Target extends keyof ValidationTargets, Schema extends ZodType>(target: Target, schema: Schema) {
  return zValidator(target, schema, (result, c) => {
    if (!result.success) {
      const { message, param } = describeZodError(result.error as never);
      return c.json(errorBody(message, 'invalid_request_error', param, 'invalid_parameter'), 400);
    }
  });
}
