import type { Context } from 'hono';
import { defineAgent, model, type AgentContext } from '../../../lib/agent/index.ts';
import { ApiError } from '../../../lib/http/api-error.ts';
import { analysisResultMessageSchema, requestMessageSchema } from '../../../schemas/messages.ts';
import type { WebhookAccepted } from '../../../schemas/router-api.ts';
import { globalSlot, legacyGlobalSlot, slotShard } from './slots.ts';

/** Flush left: the registry stores the README byte for byte. Written so that a search for the specialist does not find the router. */
const README = `# Rendezvous router

Reference application front door. A browser client posts a question to this agent; it looks up a specialist in the registry, forwards the question and keeps the reply for the client to poll.

## Interaction
- Clients: POST /api/send-request, GET /api/get-response?request_id=…
- Agents: replies to the router's requests arrive as signed envelopes at /webhook, in the session of the request.
`;

/** Router → specialist: `{request}` (the key the specialist and its README share). */
export const RequestMessage = model('Request', requestMessageSchema);

/** The router as an agent: identity from PRIMARY_AGENT_KEY, registered at PRIMARY_WEBHOOK_URL, queued delivery. */
export const routerAgent = defineAgent<RouterEnv>({
  name: 'router',
  title: 'Rendezvous router',
  readme: README,
  settings: (env) => ({
    seed: env.PRIMARY_AGENT_KEY,
    webhookUrl: env.PRIMARY_WEBHOOK_URL,
    registryUrl: env.REGISTRY_URL,
    registryToken: env.REGISTRY_API_KEY,
    allowPrivateUrls: env.ALLOW_PRIVATE_URLS === 'true',
    replayLedger: env.REPLAY_LEDGER,
    outbox: env.ROUTER_OUTBOX,
    deadLetterQueue: 'rendezvous-router-outbox-dlq',
  }),
});

/** The router agent in a route handler. */
export function routerIn(c: Context<{ Bindings: RouterEnv }>): AgentContext<RouterEnv> {
  return routerAgent.context(c.env, c.executionCtx);
}

const refusal = (status: 403 | 404, message: string, code: string) => new ApiError({ status, message, type: 'invalid_envelope', code });

/**
 * An analysis arriving at /webhook (already verified by lib/agent: signature, target, expiry, replay) is
 * filed into its request's slot, but only from the agent that took the request, in the session the router
 * opened. Into the spec's global slot too only when the slot says so (an old client's request, sent without
 * a request_id, while the operator had it on) and the operator still has it on (legacyGlobalSlot).
 */
routerAgent.onPayload(analysisResultMessageSchema, async (ctx, sender, answer) => {
  const outcome = await slotShard(ctx.env, ctx.session).file(ctx.session, sender, answer);
  if (!outcome.filed && outcome.refusal === 'unknown_session') {
    throw refusal(404, `session ${ctx.session} is not a request this router sent, or it has expired`, 'unknown_session');
  }
  if (!outcome.filed) throw refusal(403, `request ${ctx.session} was not sent to ${sender}`, 'wrong_sender');
  if (outcome.toGlobalSlot && legacyGlobalSlot(ctx.env)) await globalSlot(ctx.env).put(answer);
  const accepted: WebhookAccepted = { status: 'success' };
  return accepted;
});
