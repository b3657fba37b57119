import { parseEnvelope, serializeEnvelope, verifyEnvelope } from '../envelope/index.ts';
import { durableReplayGuard } from '../envelope/replay-ledger.ts';
import type { BoundAgent } from './bound.ts';
import { type Delivery, deliverEnvelope } from './delivery.ts';
import { reportInteraction } from './interactions.ts';
import type { Message, Model } from './model.ts';
import { signMessage } from './outbox.ts';
import type { DeliveryStatus, ReceivedReply, SendAndReceiveOptions } from './types.ts';

/** Attempts of a request-response delivery when its endpoints fail for now (5xx, 408/425/429, no answer). */
const SYNC_ATTEMPTS = 3;
/** Wait before the second attempt, doubled for each later one, unless the receiver's Retry-After says otherwise. */
const SYNC_RETRY_BASE_MS = 250;

/**
 * Request-response (spec §8): delivered directly, not queued, with the uAgents sync header; the
 * receiver answers with its reply envelope in the HTTP response, correlated by session. The reply is
 * verified like any incoming envelope (signature, addressed to us, not replayed).
 */
export async function sendAndReceive<Env>(
  agent: BoundAgent<Env>,
  to: string,
  message: Message,
  options: SendAndReceiveOptions<Model | undefined> & { session: string },
): Promise<[ReceivedReply | null, DeliveryStatus]> {
  const { session } = options;
  const status = (ok: boolean, detail: string, endpoint: string | null): DeliveryStatus => ({
    status: ok ? 'delivered' : 'failed',
    detail,
    destination: to,
    endpoint,
    session,
  });
  const envelope = signMessage(agent, to, message, session);
  const delivery = await deliverWithRetries(agent, to, serializeEnvelope(envelope), Date.now() + (options.timeout ?? 30_000), {
    sync: true,
  });
  if (delivery.kind !== 'delivered') return [null, { ...status(false, delivery.detail, delivery.endpoint), code: delivery.code }];
  agent.executionCtx.waitUntil(reportInteraction(agent, to, session));

  const parsed = parseEnvelope(delivery.body);
  if (!parsed.ok) return [null, status(true, 'delivered; the receiver sent no reply in this session', delivery.endpoint)];
  const reply = parsed.envelope;
  if (reply.sender !== to || reply.session !== session)
    return [null, status(false, 'the reply is not from the target or not in this session', delivery.endpoint)];
  const self = agent.identity.address;
  const verified = await verifyEnvelope(reply, { self, replay: durableReplayGuard(agent.settings.replayLedger, self) });
  if (!verified.ok) return [null, status(false, `the reply was refused: ${verified.message}`, delivery.endpoint)];
  let payload = verified.payload;
  if (options.response) {
    if (reply.schema_digest !== options.response.digest)
      return [null, status(false, `the reply is not a ${options.response.title}`, delivery.endpoint)];
    const checked = options.response.schema.safeParse(payload);
    if (!checked.success)
      return [
        null,
        status(false, `the reply does not match ${options.response.title}: ${checked.error.issues[0]?.message}`, delivery.endpoint),
      ];
    payload = checked.data;
  }
  return [{ sender: reply.sender, session, schemaDigest: reply.schema_digest, payload }, status(true, 'reply received', delivery.endpoint)];
}

/**
 * Delivers the one signed envelope, trying again while its endpoints fail for now and the timeout allows:
 * the caller is waiting, so the queue's minutes-long backoff is no use here. A repeat is safe: the receiver's
 * replay ledger handles an envelope once. A target that cannot be resolved is not retried (nothing answered).
 * A lost connection is sent again at once, within the same attempt: workerd reports a pooled connection the
 * receiver had closed (idle) and a refused one (nobody listening) alike, but the first fails once and the
 * next fetch opens a fresh connection (decision 0214). A second loss in a row is the receiver's failure,
 * like a 503: SYNC_ATTEMPTS in all, so a dead receiver costs its sender about a second (the waits between attempts).
 */
export async function deliverWithRetries<Env>(
  agent: BoundAgent<Env>,
  to: string,
  envelopeJson: string,
  deadline: number,
  options: { sync: boolean },
): Promise<Delivery> {
  const deliverOnce = () => deliverEnvelope(agent, to, envelopeJson, { sync: options.sync, timeoutMs: Math.max(1, deadline - Date.now()) });
  for (let attempt = 1; ; attempt++) {
    let delivery = await deliverOnce();
    if (delivery.kind === 'retry' && delivery.connectionLost && Date.now() < deadline) delivery = await deliverOnce();
    if (delivery.kind !== 'retry' || delivery.endpoint === null) return delivery;
    const wait = delivery.retryAfterMs ?? SYNC_RETRY_BASE_MS * 2 ** (attempt - 1);
    if (attempt >= SYNC_ATTEMPTS || Date.now() + wait >= deadline) {
      return { ...delivery, detail: `${delivery.detail} (${attempt} attempt${attempt > 1 ? 's' : ''})` };
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
