import { Hono } from 'hono';
import { parseEnvelope } from '../../../../lib/envelope/index.ts';
import { findAgent } from '../agents/store.ts';
import type { HostingApp } from '../app.ts';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { readBoundedText } from '../../../../lib/http/bounded-body.ts';
import { onError } from '../../../../lib/http/errors.ts';
import { platformAgent } from '../runtime/platform-agent.ts';

const ENVELOPE_MAX_BYTES = 1024 * 1024;
/** A stopped agent's messages are refused for now (503): the sender's runtime retries, or dead-letters. */
const STOPPED_RETRY_AFTER_SECONDS = 30;

/**
 * `POST /v1/hosting/submit`: every hosted agent's endpoint. The envelope's target picks the agent; lib/agent's
 * webhook then verifies it and hands it to the agent's code. `HEAD`: readiness, as Agentverse answers it.
 */
export function submitRoutes() {
  const app = new Hono<HostingApp>();

  // Hono answers HEAD with the GET route, without the body.
  app.get('/', (c) => c.json({}));

  app.post('/', async (c) => {
    // Judged from Content-Length, then counted as it streams: an oversized body is never read whole (issue 22).
    const text = await readBoundedText(c.req.raw, ENVELOPE_MAX_BYTES);
    if (text === null) throw new ApiError({ status: 413, message: 'envelope is larger than 1 MiB' });
    const parsed = parseEnvelope(text);
    if (!parsed.ok) throw new ApiError({ status: 400, message: parsed.message });
    const row = await findAgent(c.env.DB, parsed.envelope.target);
    if (!row) throw new ApiError({ status: 404, message: 'no hosted agent has this address' });
    if (row.running !== 1) {
      c.header('retry-after', String(STOPPED_RETRY_AFTER_SECONDS));
      throw new ApiError({ status: 503, message: 'this hosted agent is stopped; send again later' });
    }
    const agent = await platformAgent(c.env, row);
    const forwarded = new Request(c.req.url, { method: 'POST', headers: c.req.raw.headers, body: text });
    // The agent's webhook answers as lib/agent's do everywhere: its refusals in the platform's shape, whose
    // `code` the sender's runtime reads (a new app per agent, so its onError is set on it alone).
    return agent.app.onError(onError).fetch(forwarded, c.env, c.executionCtx);
  });

  return app;
}
