import { Hono } from 'hono';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { validate } from '../../../../lib/http/validate.ts';
import { requestIdParamSchema, type RequestStatus } from '../../../../schemas/router-api.ts';
import { slotShard } from '../slots.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

/**
 * GET /api/requests/{request_id}: the request's progress (sent, taken by an agent, answered) and the agents
 * passed over on the way, each with a code. Anyone holding the id may read it, so nothing internal is shown.
 */
export const requestStatusRoute = new Hono<{ Bindings: RouterEnv }>().get(
  '/:request_id',
  validate('param', requestIdParamSchema),
  async (c) => {
    const { request_id: requestId } = c.req.valid('param');
    const slot = await slotShard(c.env, requestId).read(requestId);
    if (slot.state === 'unknown') {
      throw new ApiError({
        status: 404,
        message: `no request ${requestId}: it was never sent here or has expired`,
        type: 'not_found',
        param: 'request_id',
        code: 'unknown_request',
      });
    }
    const { times } = slot;
    const status: RequestStatus = {
      request_id: requestId,
      state: slot.state,
      specialist: times.peer,
      passed_over: times.passedOver.map((entry) => ({ agent: entry.agent, reason: entry.reason, at: iso(entry.at) })),
      sent_at: iso(times.openedAt),
      delivered_at: isoOrNull(times.deliveredAt),
      answered_at: isoOrNull(times.filedAt),
      expires_at: iso(times.expiresAt),
      failure: slot.state === 'failed' ? slot.reason : null,
    };
    return c.json<RequestStatus>(status);
  },
);
