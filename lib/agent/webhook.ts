import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { parseEnvelope, serializeEnvelope, verifyEnvelope, type RejectReason } from '../envelope/index.ts';
import { HANDLER_LEASE_SECONDS, ledgerGuard } from '../envelope/replay-ledger.ts';
import { ApiError } from '../http/api-error.ts';
import { readBoundedText } from '../http/bounded-body.ts';
import type { BoundAgent } from './bound.ts';
import { messageContext, type SyncReply } from './context.ts';
import { SYNC_HEADER } from './delivery.ts';
import { dispatch, type HandlerTable } from './handlers.ts';
import type { HandlerResult } from './types.ts';

/**
 * A refused envelope is the sender's mistake (or an attack): a 4xx naming the reason, never a 500. Refusals
 * are of type `invalid_envelope`, and their `code` is what a sender's runtime reads (delivery.ts: `replayed`).
 */
const STATUS_OF: Record<RejectReason | 'invalid_payload', ContentfulStatusCode> = {
  malformed_envelope: 400,
  malformed_payload: 400,
  unknown_schema: 400,
  invalid_payload: 400,
  bad_sender: 400,
  expired: 400,
  bad_signature: 401,
  wrong_target: 403,
  replayed: 409,
  // Another copy is being handled: the sender retries (a 5xx), and hears `replayed` once that one has settled.
  in_progress: 503,
};

const ENVELOPE_MAX_BYTES = 1024 * 1024;

function envelopeRefusal(status: ContentfulStatusCode, message: string, code: string, headers?: HeadersInit): ApiError {
  return new ApiError({ status, message, type: 'invalid_envelope', code, headers });
}

/**
 * POST {webhookPath}: verify (signature, target, expiry, replay) before any handler runs, then dispatch.
 * The digest is claimed under a lease: a handler that succeeds settles it (copies are replays from then
 * on); one that fails, or answers non-2xx, gives it back so that the sender's retry is processed rather
 * than refused; one whose isolate dies mid-handler loses it when the lease runs out.
 */
export async function handleWebhook<Env>(c: Context, agent: BoundAgent<Env>, table: HandlerTable<Env>): Promise<Response> {
  const text = await readBoundedText(c.req.raw, ENVELOPE_MAX_BYTES);
  if (text === null) throw envelopeRefusal(413, 'envelope is larger than 1 MiB', 'too_large');
  const parsed = parseEnvelope(text);
  if (!parsed.ok) throw envelopeRefusal(400, parsed.message, 'malformed_envelope');
  const { envelope } = parsed;
  const self = agent.identity.address;
  const ledgerStub = agent.settings.replayLedger.get(agent.settings.replayLedger.idFromName(self));
  // With shape handlers any digest may be understood, so the digest check waits for dispatch.
  const acceptedSchemas = table.shapes.length ? undefined : new Set(table.typed.keys());
  const verified = await verifyEnvelope(envelope, { self, replay: ledgerGuard(ledgerStub, HANDLER_LEASE_SECONDS), acceptedSchemas });
  if (!verified.ok) {
    const headers = verified.reason === 'in_progress' ? { 'retry-after': '5' } : undefined;
    throw envelopeRefusal(STATUS_OF[verified.reason], verified.message, verified.reason, headers);
  }

  const release = () => ledgerStub.release(verified.digestHex);
  const settle = () => ledgerStub.settle(verified.digestHex);
  const route = dispatch(table, envelope.schema_digest, verified.payload);
  if (!route.ok) {
    await release();
    throw envelopeRefusal(STATUS_OF[route.code], route.message, route.code);
  }
  const syncReply: SyncReply | null = c.req.header(SYNC_HEADER) === 'sync' ? { envelope: null } : null;
  let result: HandlerResult;
  try {
    result = await route.handler(messageContext(agent, envelope, syncReply), envelope.sender, route.message);
  } catch (error) {
    await release();
    // A handler's own refusal (an ApiError) is its answer; anything else is its failure.
    if (error instanceof ApiError) throw error;
    console.error(`agent ${agent.definition.name}: handler failed for ${envelope.schema_digest} from ${envelope.sender}`, error);
    throw new ApiError({ status: 500, message: 'the message handler failed; send again', code: 'handler_failed', cause: error });
  }
  if (result instanceof Response) {
    await (result.ok ? settle() : release());
    return result;
  }
  await settle();
  if (syncReply?.envelope) return c.body(serializeEnvelope(syncReply.envelope), 200, { 'content-type': 'application/json' });
  return c.json(result ?? { status: 'success' });
}
