import { buildEnvelope, serializeEnvelope } from '../envelope/index.ts';
import { isValidAddress } from '../identity/index.ts';
import type { Envelope } from '../../schemas/envelope.ts';
import type { BoundAgent } from './bound.ts';
import type { Message } from './model.ts';
import type { OutboundMessage } from './outbound-message.ts';

const DEFAULT_TTL_SECONDS = 3600;

/** The most a Cloudflare Queue carries in one message (receivers take envelopes up to 1 MiB: deliver those directly). */
const OUTBOX_MESSAGE_MAX_BYTES = 128_000;

function randomNonce(): bigint {
  const words = crypto.getRandomValues(new Uint32Array(2));
  return (BigInt(words[0]! & 0x7fffffff) << 32n) | BigInt(words[1]!);
}

/**
 * Signs a message for `to`. The nonce makes two identical messages two envelopes (receivers drop a
 * repeated digest as a replay); the expiry covers the retry schedule.
 */
export function signMessage<Env>(agent: BoundAgent<Env>, to: string, message: Message, session: string): Envelope {
  if (!isValidAddress(to)) throw new TypeError(`${JSON.stringify(to)} is not an agent address`);
  return buildEnvelope({
    sender: agent.identity,
    target: to,
    session,
    schemaDigest: message.schemaDigest,
    protocolDigest: message.protocolDigest,
    payload: message.payload,
    expires: Math.floor(Date.now() / 1000) + (agent.settings.envelopeTtlSeconds ?? DEFAULT_TTL_SECONDS),
    nonce: randomNonce(),
  });
}

export async function enqueue<Env>(agent: BoundAgent<Env>, envelope: Envelope): Promise<void> {
  const body: OutboundMessage = {
    agent: agent.definition.name,
    target: envelope.target,
    session: envelope.session,
    envelope: serializeEnvelope(envelope),
  };
  const bytes = new TextEncoder().encode(JSON.stringify(body)).length;
  // Refused here in words the sender's code can act on, rather than as the queue's "Unknown Internal Error".
  if (bytes > OUTBOX_MESSAGE_MAX_BYTES)
    throw new TypeError(`the message is ${bytes} bytes queued; the outbox carries at most ${OUTBOX_MESSAGE_MAX_BYTES} bytes a message`);
  await agent.settings.outbox.send(body, { contentType: 'json' });
}

/** Delay before attempt `attempts + 1`: base × 2^(attempts − 1), capped. */
export function backoffSeconds(attempts: number, retry: { baseDelaySeconds?: number; maxDelaySeconds?: number } = {}): number {
  const base = retry.baseDelaySeconds ?? 1;
  const max = retry.maxDelaySeconds ?? 300;
  return Math.min(max, Math.round(base * 2 ** Math.max(0, attempts - 1)));
}
