import type { MiddlewareHandler } from 'hono';

/**
 * OpenAI's `x-request-id` on every answer, errors and streams included: its SDKs show it as the request id
 * (`_request_id`), the one a user quotes when reporting a problem.
 */
export const requestId: MiddlewareHandler = async (c, next) => {
  const id = `req_${crypto.randomUUID().replaceAll('-', '')}`;
  await next();
  c.header('x-request-id', id);
};
