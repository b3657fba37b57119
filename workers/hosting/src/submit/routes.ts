import { Hono } from 'hono';
import { parseEnvelope } from '../../../../lib/envelope/index.ts';
import { findAgent } from '../agents/store.ts';
import type { HostingApp } from '../app.ts';
import { detail } from '../http/detail.ts';
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
    const text = await c.req.text();
    if (text.length > ENVELOPE_MAX_BYTES) return detail(c, 413, 'envelope is larger than 1 MiB');
    const parsed = parseEnvelope(text);
    if (!parsed.ok) return detail(c, 400, parsed.message);
    const row = await findAgent(c.env.DB, parsed.envelope.target);
    if (!row) return detail(c, 404, 'no hosted agent has this address');
    if (row.running !== 1) {
      c.header('retry-after', String(STOPPED_RETRY_AFTER_SECONDS));
      return detail(c, 503, 'this hosted agent is stopped; send again later');
    }
    const agent = await platformAgent(c.env, row);
    const forwarded = new Request(c.req.url, { method: 'POST', headers: c.req.raw.headers, body: text });
    return agent.fetch(forwarded, c.env, c.executionCtx as unknown as ExecutionContext);
  });

  return app;
}
