import { createMiddleware } from 'hono/factory';
import { errorBodySchema } from '../../../schemas/http.ts';
import type { RouterError } from '../../../schemas/router-api.ts';

/**
 * The spec gives the router's errors as `{error: string}`, while lib/http (shared by every Worker) writes the
 * platform's `{error: {message, type, param, code}}`. This turns the one into the other on the router's own
 * routes, keeping `code` and `param`, so clients written for the spec show the message and ours can branch
 * on the code.
 */
export const specErrorBodies = createMiddleware(async (c, next) => {
  await next();
  if (c.res.status < 400 || !c.res.headers.get('content-type')?.includes('application/json')) return;
  const platform = errorBodySchema.safeParse(await c.res.clone().json().catch(() => null));
  if (!platform.success) return;
  const { message, code, param } = platform.data.error;
  const body: RouterError = { error: message, code, param };
  const headers = new Headers(c.res.headers);
  headers.delete('content-length');
  c.res = new Response(JSON.stringify(body), { status: c.res.status, headers });
});
