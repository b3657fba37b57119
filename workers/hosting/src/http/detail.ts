import type { ZodType } from 'zod';
import type { $ZodError } from 'zod/v4/core';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { type Dialect, speaks } from '../../../../lib/http/errors.ts';
import { type Refusals, validate } from '../../../../lib/http/validate.ts';
import type { DetailError } from '../../../../schemas/registry.ts';
import type { ValidationError } from '../../../../schemas/hosting.ts';

type Issue = ValidationError['detail'][number];

/** FastAPI's 422: the request's fields at fault, each as `{loc, msg, type}` (what Agentverse clients parse). */
export class ValidationRefusal extends ApiError {
  constructor(readonly issues: Issue[]) {
    super({ status: 422, message: issues.map((issue) => issue.msg).join('; ') || 'invalid request' });
  }
}

/**
 * The hosting API answers errors as Agentverse does (FastAPI): `{detail: text}`, and a validation error
 * `{detail: [{loc, msg, type}]}`.
 */
const hostingDialect: Dialect = (error): DetailError | ValidationError =>
  error instanceof ValidationRefusal ? { detail: error.issues } : { detail: error.message };

export const speaksHosting = speaks(hostingDialect);

const LOCATION = { json: 'body', param: 'path', query: 'query' } as const;

/** A zod error as FastAPI's issues: `loc` starting with body/path/query. */
function issuesOf(target: keyof typeof LOCATION, error: $ZodError): Issue[] {
  return error.issues.map((issue) => ({
    loc: [LOCATION[target], ...issue.path.map((part) => (typeof part === 'number' ? part : String(part)))],
    msg: issue.message,
    type: issue.code,
  }));
}

/** A body that is not JSON is a 422 as FastAPI answers it. */
const hostingRefusals: Refusals = {
  invalid: (error, target) => new ValidationRefusal(issuesOf(target, error)),
  malformed: () => new ApiError({ status: 422, message: 'Malformed JSON in request body' }),
  tooLarge: (maxBytes) => new ApiError({ status: 413, message: `request body is larger than ${maxBytes} bytes` }),
};

/** lib/http's validator answering 422 `{detail:[{loc,msg,type}]}`, which Agentverse clients parse. */
export function validateHosting<Target extends keyof typeof LOCATION, Schema extends ZodType<object>>(target: Target, schema: Schema) {
  return validate(target, schema, hostingRefusals);
}
