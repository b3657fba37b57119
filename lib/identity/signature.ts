import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToNumberBE } from '@noble/curves/utils.js';
import { bech32Decode, bech32Encode } from './address.ts';
import { keyToVerify, noteVerified } from './verification-key.ts';

/** Bech32 prefix of signatures, as in uagents-core. */
const SIGNATURE_PREFIX = 'sig';
const SIGNATURE_LENGTH = 64;
const DIGEST_LENGTH = 32;
/** Arithmetic modulo the curve order n. */
const Fn = secp256k1.Point.Fn;

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
 *
 * ECDSA as noble's `secp256k1.verify` does it (R = u1·G + u2·Q, accept when R.x mod n = r), but with the key
 * cached as a point: a peer heard from before has a precomputed table, and u2·Q on it costs half of
 * noble's joint multiplication, which must rebuild Q from bytes for every message.
 */
export function verifyDigest(address: string, digest: Uint8Array, signature: string): boolean {
  const compact = decodeSignature(signature);
  const key = keyToVerify(address);
  if (!compact || !key || digest.length !== DIGEST_LENGTH) return false;
  try {
    const { r, s } = secp256k1.Signature.fromBytes(compact, 'compact');
    const inverse = Fn.inv(s);
    const u1 = Fn.mul(Fn.create(bytesToNumberBE(digest)), inverse);
    const u2 = Fn.mul(r, inverse);
    const R = key.tabled
      ? secp256k1.Point.BASE.multiplyUnsafe(u1).add(key.point.multiplyUnsafe(u2))
      : secp256k1.Point.BASE.mulAddUnsafe(u1, key.point, u2);
    const valid = !R.is0() && Fn.create(R.toAffine().x) === r;
    if (valid) noteVerified(address);
    return valid;
  } catch {
    return false;
  }
}
