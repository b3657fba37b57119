import { bytesToHex } from '@noble/hashes/utils.js';
import type { Envelope } from '../../schemas/envelope.ts';
import { verificationKey, verifyDigest } from '../identity/index.ts';
import { decodePayload } from './base64.ts';
import { envelopeDigest } from './digest.ts';
import { REPLAY_WINDOW_SECONDS, type ReplayGuard } from './replay.ts';

export type RejectReason =
  | 'malformed_envelope'
  | 'bad_sender'
  | 'bad_signature'
  | 'wrong_target'
  | 'expired'
  | 'replayed'
  | 'in_progress'
  | 'malformed_payload'
  | 'unknown_schema';

export type Verification = { ok: true; payload: unknown; digestHex: string } | { ok: false; reason: RejectReason; message: string };

export interface VerifyOptions {
  /** The receiving agent's address; the envelope's target must equal it. */
  self: string;
  replay: ReplayGuard;
  /** Schema digests this receiver understands; omit to take any (plain JSON payload receivers). */
  acceptedSchemas?: ReadonlySet<string>;
  nowSeconds?: number;
}

const reject = (reason: RejectReason, message: string): Verification => ({ ok: false, reason, message });

/**
 * Verifies an envelope and decodes its payload. Checks run cheapest first; the replay ledger is
 * consulted last so that a forged envelope cannot burn a digest.
 */
export async function verifyEnvelope(envelope: Envelope, options: VerifyOptions): Promise<Verification> {
  const now = options.nowSeconds ?? Date.now() / 1000;
  if (!verificationKey(envelope.sender)) return reject('bad_sender', 'sender is not a valid agent address');
  if (envelope.target !== options.self) return reject('wrong_target', `envelope is addressed to ${envelope.target}, not to this agent`);
  if (envelope.expires != null && Number(envelope.expires) < now) {
    return reject('expired', `envelope expired at ${envelope.expires} (unix seconds); it is now ${Math.floor(now)}`);
  }
  if (options.acceptedSchemas && !options.acceptedSchemas.has(envelope.schema_digest)) {
    return reject('unknown_schema', `no handler for schema ${envelope.schema_digest}`);
  }
  if (!envelope.signature) return reject('bad_signature', 'envelope is not signed');
  const digest = envelopeDigest(envelope);
  if (!verifyDigest(envelope.sender, digest, envelope.signature)) {
    return reject('bad_signature', 'signature does not match the sender and the signed fields');
  }
  if (envelope.payload == null) return reject('malformed_payload', 'envelope has no payload');
  let payloadText: string;
  try {
    payloadText = decodePayload(envelope.payload);
  } catch {
    return reject('malformed_payload', 'payload is not base64 of UTF-8 text');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(payloadText);
  } catch {
    return reject('malformed_payload', 'payload is not JSON');
  }
  const digestHex = bytesToHex(digest);
  // Remembered until it expires, but never longer than the replay window: the sender's expiry (up to 2^64)
  // must not make receivers keep its digest for ever. A far-future envelope is then as an envelope without one.
  const rememberUntil = Math.min(
    envelope.expires != null ? Number(envelope.expires) : Number.POSITIVE_INFINITY,
    now + REPLAY_WINDOW_SECONDS,
  );
  const claim = await options.replay.claim(digestHex, rememberUntil);
  if (claim === 'replayed') return reject('replayed', 'envelope was already received');
  if (claim === 'in_progress') return reject('in_progress', 'this envelope is being handled now; send it again later');
  return { ok: true, payload, digestHex };
}
