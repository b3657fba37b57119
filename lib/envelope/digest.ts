import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import type { Envelope } from '../../schemas/envelope.ts';

export type SignedFields = Pick<Envelope, 'sender' | 'target' | 'session' | 'schema_digest' | 'payload' | 'expires' | 'nonce'>;

function u64be(value: bigint): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, value, false);
  return bytes;
}

/** The digest uagents-core signs: the fields in this order, the optional ones only when present. */
export function envelopeDigest(fields: SignedFields): Uint8Array {
  const hash = sha256.create();
  hash.update(utf8ToBytes(fields.sender));
  hash.update(utf8ToBytes(fields.target));
  hash.update(utf8ToBytes(fields.session));
  hash.update(utf8ToBytes(fields.schema_digest));
  if (fields.payload != null) hash.update(utf8ToBytes(fields.payload));
  if (fields.expires != null) hash.update(u64be(fields.expires));
  if (fields.nonce != null) hash.update(u64be(fields.nonce));
  return hash.digest();
}
