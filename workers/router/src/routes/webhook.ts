import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { parseEnvelope, verifyEnvelope, type RejectReason } from '../../../../lib/envelope/index.ts';
import { durableReplayGuard } from '../../../../lib/envelope/replay-ledger.ts';
import { describeZodError, jsonError } from '../../../../lib/http/errors.ts';
import { analysisResultMessageSchema } from '../../../../schemas/messages.ts';
import { routerIdentity } from '../router-identity.ts';
import { answerSlot, globalSlot } from '../slots.ts';

/** A refused envelope is the sender's mistake (or an attack): a 4xx naming the reason, never a 500. */
const STATUS_OF: Record<RejectReason, ContentfulStatusCode> = {
  malformed_envelope: 400,
  malformed_payload: 400,
  unknown_schema: 400,
  bad_sender: 400,
  expired: 400,
  bad_signature: 401,
  wrong_target: 403,
  replayed: 409,
};

/**
 * POST /webhook. Takes a signed envelope from the agent a request was sent to, in the session the router
 * opened for it, and files its analysis into that request's slot and into the spec's global slot.
 */
export const webhookRoute = new Hono<{ Bindings: RouterEnv }>().post('/', async (c) => {
  const refuse = (status: ContentfulStatusCode, message: string, code: string) => jsonError(c, status, message, 'invalid_envelope', null, code);
  const parsed = parseEnvelope(await c.req.text());
  if (!parsed.ok) return refuse(400, parsed.message, 'malformed_envelope');
  const envelope = parsed.envelope;
  const self = routerIdentity(c.env).address;
  const verified = await verifyEnvelope(envelope, { self, replay: durableReplayGuard(c.env.REPLAY_LEDGER, self) });
  if (!verified.ok) return refuse(STATUS_OF[verified.reason], verified.message, verified.reason);
  const message = analysisResultMessageSchema.safeParse(verified.payload);
  if (!message.success) return refuse(400, `payload is not an analysis result: ${describeZodError(message.error).message}`, 'unexpected_payload');

  const outcome = await answerSlot(c.env, envelope.session).file(envelope.sender, message.data);
  if (outcome === 'unknown_session') return refuse(404, `session ${envelope.session} is not a request this router sent, or it has expired`, 'unknown_session');
  if (outcome === 'wrong_sender') return refuse(403, `request ${envelope.session} was not sent to ${envelope.sender}`, 'wrong_sender');
  await globalSlot(c.env).put(message.data);
  return c.json({ status: 'success' as const });
});
