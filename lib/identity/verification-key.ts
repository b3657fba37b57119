import { secp256k1 } from '@noble/curves/secp256k1.js';
import { decodeAddress } from './address.ts';

/** Peers an agent hears from are few; the cap bounds memory when many senders appear. */
const MAX_CACHED_KEYS = 1024;
const cache = new Map<string, Uint8Array>();

/**
 * The uncompressed public key of an agent address, or null when the address is not a valid agent key.
 * Decoded once per address: bech32 and point decompression (a field square root) otherwise cost about
 * as much as the rest of the envelope layer together, and verifying against an uncompressed key skips it.
 */
export function verificationKey(address: string): Uint8Array | null {
  const cached = cache.get(address);
  if (cached) return cached;
  let key: Uint8Array;
  try {
    key = secp256k1.Point.fromBytes(decodeAddress(address)).toBytes(false);
  } catch {
    return null;
  }
  if (cache.size >= MAX_CACHED_KEYS) cache.delete(cache.keys().next().value!);
  cache.set(address, key);
  return key;
}
