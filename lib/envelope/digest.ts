import { sha256 } from '@noble/hashes/sha2.js';
import type { Envelope } from '../../schemas/envelope.ts';

export type SignedFields = Pick<Envelope, 'sender' | 'target' | 'session' | 'schema_digest' | 'payload' | 'expires' | 'nonce'>;

const encoder = new TextEncoder();

/**
 * The digest uagents-core signs: sha256(sender || target || session || schema_digest || payload
 * [|| u64be(expires)] [|| u64be(nonce)]), the optional parts only when present. Hashed as one buffer:
 * one UTF-8 encoding and one hash call instead of one per field.
 */
export function envelopeDigest(fields: SignedFields): Uint8Array {
  const text = encoder.encode(fields.sender + fields.target + fields.session + fields.schema_digest + (fields.payload ?? ''));
  const u64Count = (fields.expires != null ? 1 : 0) + (fields.nonce != null ? 1 : 0);
  const bytes = new Uint8Array(text.length + 8 * u64Count);
  bytes.set(text);
  const view = new DataView(bytes.buffer);
  let offset = text.length;
  for (const value of [fields.expires, fields.nonce]) {
    if (value == null) continue;
    view.setBigUint64(offset, value, false);
    offset += 8;
  }
  return sha256(bytes);
}
