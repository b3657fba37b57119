import { Hono } from 'hono';
import { timing, wrapTime } from 'hono/timing';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { validate } from '../../../../lib/http/validate.ts';
import { type RequestSent, sendRequestBodySchema } from '../../../../schemas/router-api.ts';
import { RequestMessage, routerIn } from '../agent.ts';
import { type Discovery, discoverCandidates } from '../discovery.ts';
import { handOver } from '../failover.ts';
import { RegistryError } from '../registry.ts';
import { sendRequestLimit } from '../send-limit.ts';
import { answerTtlMs, legacyGlobalSlot, slotShard } from '../slots.ts';

/**
 * POST /api/send-request. Finds the trusted agents that can answer (discovery.ts), then offers `{request:
 * input}` to them in turn in a new session, whose id is the request id the client polls with, until one
 * acknowledges it (failover.ts). Only when none can take it does the client get an error, with the reasons.
 * The id is the client's own `request_id` where it sent one (a 409 if a live request holds it), else a new
 * one; only a request without one is an old client's, whose answer may also go to the spec's global slot.
 */
export const sendRequestRoute = new Hono<{ Bindings: RouterEnv }>().post(
  '/',
  timing({ total: false }),
  sendRequestLimit,
  validate('json', sendRequestBodySchema),
  async (c) => {
    const { input, request_id: clientRequestId } = c.req.valid('json');
    const agent = routerIn(c);
    let found: Discovery;
    try {
      // Server-Timing `registry-search` (bench:e2e reads it): 0 while a cached registry answer serves.
      found = await wrapTime(c, 'registry-search', discoverCandidates(c.env, agent.address));
    } catch (error) {
      if (!(error instanceof RegistryError)) throw error;
      console.error(`router: ${error.message}`);
      throw new ApiError({
        status: 500,
        message: 'the registry could not be asked for a specialist; try again shortly',
        type: 'upstream_error',
        code: 'registry_unavailable',
        cause: error,
      });
    }
    if (found.candidates.length === 0) {
      const message = found.matched
        ? `no specialist this router trusts is registered: the registry's ${found.matched} match${found.matched > 1 ? 'es are' : ' is'} other accounts' agents`
        : 'no specialist agent is registered yet; start the specialist, then ask again';
      throw new ApiError({ status: 404, message, type: 'not_found', code: 'no_specialist' });
    }
    const requestId = clientRequestId ?? crypto.randomUUID();
    const toGlobalSlot = clientRequestId === undefined && legacyGlobalSlot(c.env);
    if (!(await slotShard(c.env, requestId).open(requestId, found.candidates[0]!, answerTtlMs(c.env), toGlobalSlot))) {
      throw new ApiError({
        status: 409,
        message: `request_id ${requestId} is already in use; send each question with a new UUID (poll this one for its answer)`,
        type: 'invalid_request_error',
        param: 'request_id',
        code: 'request_id_in_use',
      });
    }
    const handover = await handOver(agent, requestId, found.candidates, RequestMessage({ request: input }));
    if (!handover.ok) throw new ApiError({ status: 502, message: handover.failure, type: 'upstream_error', code: 'undeliverable' });
    return c.json<RequestSent>({ status: 'request_sent', request_id: requestId });
  },
);
