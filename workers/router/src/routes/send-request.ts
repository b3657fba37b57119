import { Hono } from 'hono';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { validate } from '../../../../lib/http/validate.ts';
import { type RequestSent, sendRequestBodySchema } from '../../../../schemas/router-api.ts';
import { RequestMessage, routerIn } from '../agent.ts';
import { findSpecialist, RegistryError } from '../discovery.ts';
import { answerSlot, answerTtlMs } from '../slots.ts';

/**
 * POST /api/send-request. Finds the specialist, opens the request's answer slot (so that the answer can
 * only be filed from that agent, in this session) and sends `{request: input}` in a new session, whose id
 * is the request id the client polls with. Sending queues the signed envelope; lib/agent delivers it
 * with retries.
 */
export const sendRequestRoute = new Hono<{ Bindings: RouterEnv }>().post('/', validate('json', sendRequestBodySchema), async (c) => {
  const { input } = c.req.valid('json');
  const agent = routerIn(c);
  let specialist: string | undefined;
  try {
    specialist = await findSpecialist(c.env, agent.address);
  } catch (error) {
    if (!(error instanceof RegistryError)) throw error;
    throw new ApiError({ status: 500, message: error.message, type: 'upstream_error', code: 'registry_unavailable', cause: error });
  }
  if (!specialist) {
    throw new ApiError({
      status: 404,
      message: 'no specialist agent is registered yet; start the specialist, then ask again',
      type: 'not_found',
      code: 'no_specialist',
    });
  }
  const requestId = crypto.randomUUID();
  await answerSlot(c.env, requestId).open(specialist, answerTtlMs(c.env));
  await agent.send(specialist, RequestMessage({ request: input }), { session: requestId });
  return c.json<RequestSent>({ status: 'request_sent', request_id: requestId });
});
