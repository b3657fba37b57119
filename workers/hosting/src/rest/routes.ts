import { Hono } from 'hono';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { readBoundedText } from '../../../../lib/http/bounded-body.ts';
import { findAgent } from '../agents/store.ts';
import type { HostingApp } from '../app.ts';
import type { AgentRow } from '../agents/records.ts';
import type { RestAnswer, RestRequest } from '../guest/protocol.ts';
import { failureText, guestOf } from '../runtime/guest-loader.ts';
import { hostedAgentStub } from '../runtime/hosted-agent.ts';
import { watched } from '../runtime/watchdog.ts';

/** The most a REST request's body may hold, as an envelope at /v1/hosting/submit. */
const REST_BODY_MAX_BYTES = 1024 * 1024;
const STOPPED_RETRY_AFTER_SECONDS = 30;

/** One request to the agent's code, its answer as the protocol states it (RPC's types lose the body's branch). */
async function askGuest(env: HostingEnv, row: AgentRow, request: RestRequest): Promise<RestAnswer> {
  return await watched(env, row.address, 'rest', () => guestOf(env, row).rest(request));
}

/**
 * `GET|POST /v1/hosting/rest/{address}/{endpoint…}`: a hosted agent's REST endpoints (uagents' `on_rest_get` /
 * `on_rest_post`). Public, as a uagents agent's own server serves them; the call into the agent's code runs
 * under the watchdog as a message does, so a runaway handler stops the agent.
 */
export function restRoutes() {
  const app = new Hono<HostingApp>();

  app.on(['GET', 'POST'], '/:address/*', async (c) => {
    const address = c.req.param('address');
    const path = c.req.path.slice(c.req.path.indexOf(address) + address.length) || '/';
    const row = await findAgent(c.env.DB, address);
    if (!row) throw new ApiError({ status: 404, message: 'no hosted agent has this address' });
    if (row.running !== 1) {
      c.header('retry-after', String(STOPPED_RETRY_AFTER_SECONDS));
      throw new ApiError({ status: 503, message: 'this hosted agent is stopped; send again later' });
    }
    const method = c.req.method === 'POST' ? 'POST' : 'GET';
    const body = method === 'POST' ? await readBoundedText(c.req.raw, REST_BODY_MAX_BYTES) : null;
    if (body === null && method === 'POST') throw new ApiError({ status: 413, message: 'the body is larger than 1 MiB' });
    const answer = await askGuest(c.env, row, { method, path, body }).catch(async (error: unknown) => {
      await hostedAgentStub(c.env, row.address).log('erro', 'system', `the agent's code could not run: ${failureText(error)}`);
      throw new ApiError({ status: 502, message: `the hosted agent could not answer: ${failureText(error)}` });
    });
    if (!answer.ok) throw new ApiError({ status: answer.status, message: answer.message });
    return c.json(answer.body);
  });

  return app;
}
