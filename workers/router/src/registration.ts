import type { MiddlewareHandler } from 'hono';
import { registerAgent } from '../../../lib/registry-client/index.ts';

/** Flush left: the registry stores the README byte for byte. Written so that a search for the specialist does not find the router. */
const README = `# Rendezvous router

Reference application front door. A browser client posts a question to this agent; it looks up a specialist in the registry, forwards the question and keeps the reply for the client to poll.

## Interaction
- Clients: POST /api/send-request, GET /api/get-response?request_id=…
- Agents: replies to the router's requests arrive as signed envelopes at /webhook, in the session of the request.
`;

let registration: Promise<void> | undefined;

/** Registers the router (webhook URL, title, README) once per isolate; a failure is retried on the next request. */
function ensureRegistered(env: RouterEnv): Promise<void> {
  registration ??= registerAgent({
    seed: env.PRIMARY_AGENT_KEY,
    url: env.PRIMARY_WEBHOOK_URL,
    token: env.REGISTRY_API_KEY,
    title: 'Rendezvous router',
    readme: README,
    registryUrl: env.REGISTRY_URL,
  }).then(
    () => undefined,
    (error: unknown) => {
      registration = undefined;
      console.error('router registration failed; retrying on the next request:', (error as Error).message);
    },
  );
  return registration;
}

/** Workers have no start-up hook: the first request of an isolate registers it, without waiting for it. */
export const registerOnFirstRequest: MiddlewareHandler<{ Bindings: RouterEnv }> = async (c, next) => {
  c.executionCtx.waitUntil(ensureRegistered(c.env));
  await next();
};
