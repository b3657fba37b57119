import { Hono } from 'hono';
import { jsonError } from '../../../../lib/http/errors.ts';
import { validate } from '../../../../lib/http/validate.ts';
import { getResponseQuerySchema } from '../../../../schemas/router-api.ts';
import { answerSlot, globalSlot, legacyGlobalSlot } from '../slots.ts';

/**
 * GET /api/get-response. With `request_id`: that request's answer (kept until it expires, so polls may be
 * repeated) or `{status:'waiting'}`; an unknown or expired id is a 404. Without: the spec's global slot,
 * which hands out its payload once, where the operator turned it on (LEGACY_GLOBAL_SLOT); else a 400.
 */
export const getResponseRoute = new Hono<{ Bindings: RouterEnv }>().get('/', validate('query', getResponseQuerySchema), async (c) => {
  const { request_id: requestId } = c.req.valid('query');
  if (requestId === undefined) {
    if (!legacyGlobalSlot(c.env)) {
      return jsonError(c, 400, 'request_id is required: poll with the request_id that send-request answered', 'invalid_request_error', 'request_id', 'missing_request_id');
    }
    const payload = await globalSlot(c.env).take();
    return c.json(payload ?? { status: 'waiting' });
  }
  const slot = await answerSlot(c.env, requestId).read();
  if (slot.state === 'unknown') {
    return jsonError(c, 404, `no request ${requestId}: it was never sent here or its answer has expired`, 'not_found', 'request_id', 'unknown_request');
  }
  if (slot.state === 'waiting') return c.json({ status: 'waiting' });
  if (slot.state === 'failed') return jsonError(c, 502, slot.reason, 'upstream_error', 'request_id', 'undeliverable');
  return c.json(slot.answer);
});
