import { Hono } from 'hono';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { validate } from '../../../../lib/http/validate.ts';
import { type GetResponseBody, getResponseQuerySchema } from '../../../../schemas/router-api.ts';
import { globalSlot, legacyGlobalSlot, slotShard } from '../slots.ts';

/**
 * GET /api/get-response. With `request_id`: that request's answer (kept until it expires, so polls may be
 * repeated) or `{status:'waiting'}`, at once or, with `wait`, as soon as it is filed (a long poll, up to
 * `wait` seconds); an unknown or expired id is a 404. Without: the spec's global slot,
 * which hands out its payload once, where the operator turned it on (LEGACY_GLOBAL_SLOT); else a 400.
 */
export const getResponseRoute = new Hono<{ Bindings: RouterEnv }>().get('/', validate('query', getResponseQuerySchema), async (c) => {
  const { request_id: requestId, wait } = c.req.valid('query');
  if (requestId === undefined) {
    if (!legacyGlobalSlot(c.env)) {
      throw new ApiError({
        status: 400,
        message: 'request_id is required: poll with the request_id that send-request answered',
        param: 'request_id',
        code: 'missing_request_id',
      });
    }
    const payload = await globalSlot(c.env).take();
    return c.json<GetResponseBody>(payload ?? { status: 'waiting' });
  }
  const slot = await slotShard(c.env, requestId).read(requestId, (wait ?? 0) * 1000);
  if (slot.state === 'unknown') {
    throw new ApiError({
      status: 404,
      message: `no request ${requestId}: it was never sent here or its answer has expired`,
      type: 'not_found',
      param: 'request_id',
      code: 'unknown_request',
    });
  }
  if (slot.state === 'waiting') return c.json<GetResponseBody>({ status: 'waiting' });
  if (slot.state === 'failed') {
    throw new ApiError({
      status: 502,
      message: slot.reason,
      type: 'upstream_error',
      param: 'request_id',
      code: 'undeliverable',
    });
  }
  return c.json<GetResponseBody>(slot.answer);
});
