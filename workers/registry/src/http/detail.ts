import type { ZodType } from 'zod';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { describeZodError, type Dialect, speaks } from '../../../../lib/http/errors.ts';
import { type Refusals, validate } from '../../../../lib/http/validate.ts';
import type { DetailError } from '../../../../schemas/registry.ts';

/**
 * The endpoints the Python SDKs call answer errors as `{detail}`: the SDK prints `detail` for 401, 406
 * and 409. Their sub-apps declare it with `speaksDetail`, so `onError` renders every error there this way.
 */
export const detailDialect: Dialect = (error): DetailError => ({ detail: error.message });

export const speaksDetail = speaks(detailDialect);

/** Malformed data is 406 for the SDKs, whether the body is not JSON or a field is wrong. */
const detailRefusals: Refusals = {
  invalid: (error, target) =>
    new ApiError({
      status: 406,
      message: `malformed ${target === 'param' ? 'path' : target}: ${describeZodError(error).message}`,
    }),
  malformed: () => new ApiError({ status: 406, message: 'Malformed JSON in request body' }),
  tooLarge: (maxBytes) => new ApiError({ status: 413, message: `request body is larger than ${maxBytes} bytes` }),
};

export function validateDetail<Target extends 'json' | 'query' | 'param', Schema extends ZodType<object>>(target: Target, schema: Schema) {
  return validate(target, schema, detailRefusals);
}
