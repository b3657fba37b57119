import { zValidator } from '@hono/zod-validator';
import type { Context, ValidationTargets } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError, ZodType } from 'zod';
import type { DetailError } from '../../../../schemas/registry.ts';
import type { ValidationError } from '../../../../schemas/hosting.ts';

/** The hosting API answers errors as Agentverse does (FastAPI): `{detail: text}`. */
export function detail(c: Context, status: ContentfulStatusCode, message: string) {
  const body: DetailError = { detail: message };
  return c.json(body, status);
}

const LOCATION: Partial<Record<keyof ValidationTargets, string>> = { json: 'body', param: 'path', query: 'query' };

/** A zod error as FastAPI's 422 body: one `{loc, msg, type}` per issue, `loc` starting with body/path/query. */
function validationBody(target: keyof ValidationTargets, error: ZodError): ValidationError {
  return {
    detail: error.issues.map((issue) => ({
      loc: [LOCATION[target] ?? target, ...issue.path.map((part) => (typeof part === 'number' ? part : String(part)))],
      msg: issue.message,
      type: issue.code,
    })),
  };
}

/** `@hono/zod-validator` answering 422 `{detail:[{loc,msg,type}]}`, which Agentverse clients parse. */
export function validate<Target extends keyof ValidationTargets, Schema extends ZodType>(target: Target, schema: Schema) {
  return zValidator(target, schema, (result, c) => {
    if (!result.success) return c.json(validationBody(target, result.error as unknown as ZodError), 422);
  });
}

/** A body that is not JSON is a 422 as FastAPI answers it; anything unexpected is a logged 500 without internals. */
export function onError(error: Error, c: Context) {
  if (error instanceof HTTPException) {
    const status = error.status === 400 ? 422 : (error.status as ContentfulStatusCode);
    return detail(c, status, error.message || 'request failed');
  }
  console.error('unhandled error', error);
  return detail(c, 500, 'internal error');
}

export function notFound(c: Context) {
  return detail(c, 404, `no route for ${c.req.method} ${new URL(c.req.url).pathname}`);
}
