import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bech32Decode, bech32Encode } from './address.ts';
import { verificationKey } from './verification-key.ts';

/** Bech32 prefix of signatures, as in uagents-core. */
const SIGNATURE_PREFIX = 'sig';
const SIGNATURE_LENGTH = 64;

export function encodeSignature(compact: Uint8Array): string {
  return bech32Encode(SIGNATURE_PREFIX, compact);
}

/** Returns the 64-byte r||s of a `sig1…` string, or null when it is not one. */
export function decodeSignature(signature: string): Uint8Array | null {
  try {
    const { prefix, bytes } = bech32Decode(signature);
    return prefix === SIGNATURE_PREFIX && bytes.length === SIGNATURE_LENGTH ? bytes : null;
  } catch {
    return null;
  }
}

/**
 * Verifies a signature of a 32-byte digest against an agent address. High-s signatures are accepted:
 * Python's ecdsa does not normalise s, so about half of real uAgents signatures are high-s.
 */
export function verifyDigest(address: string, digest: Uint8Array, signature: string): boolean {
  const compact = decodeSignature(signature);
  const publicKey = verificationKey(address);
  if (!compact || !publicKey) return false;
  try {
    return secp256k1.verify(compact, digest, publicKey, { prehash: false, lowS: false });
  } catch {
    return false;
  }
}
