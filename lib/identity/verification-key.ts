import { secp256k1 } from '@noble/curves/secp256k1.js';
import { decodeAddress } from './address.ts';

export type VerificationKey = ReturnType<typeof secp256k1.Point.fromBytes>;

/** Peers an agent hears from are few; the cap bounds memory when many senders appear. */
const MAX_CACHED_KEYS = 1024;
/**
 * Peers verified more than once (the router's specialist, the specialist's routers) get a width-4 wNAF table
 * of their key: about 135 KB each, so a few; it halves the time of each later verification.
 */
const MAX_TABLED_KEYS = 16;
const TABLE_WINDOW = 4;

interface CachedKey {
  point: VerificationKey;
  verifications: number;
}

const cache = new Map<string, CachedKey>();
/** Addresses whose key has a table, oldest first. */
const tabled = new Set<string>();

function cached(address: string): CachedKey | null {
  const hit = cache.get(address);
  if (hit) return hit;
  let point: VerificationKey;
  try {
    point = secp256k1.Point.fromBytes(decodeAddress(address));
  } catch {
    return null;
  }
  if (cache.size >= MAX_CACHED_KEYS) {
    const oldest = cache.keys().next().value!;
    cache.delete(oldest);
    tabled.delete(oldest);
  }
  const entry = { point, verifications: 0 };
  cache.set(address, entry);
  return entry;
}

/**
 * The public key of an agent address, or null when the address is not a valid agent key. Decoded once per
 * address: bech32 and point decompression (a field square root) otherwise cost about as much as the rest
 * of the envelope layer together.
 */
export function verificationKey(address: string): VerificationKey | null {
  return cached(address)?.point ?? null;
}

/** The key to verify a signature of `address` with, and whether it carries a precomputed table. */
export function keyToVerify(address: string): { point: VerificationKey; tabled: boolean } | null {
  const entry = cached(address);
  return entry ? { point: entry.point, tabled: tabled.has(address) } : null;
}

/**
 * A signature of `address` verified: from the second, its key gets a table while there is room. Only valid
 * signatures count, so a stream of forged ones cannot make the verifier build tables. When the tables are
 * taken, a key displaces the least verified tabled one only once it has been verified twice as often: more
 * peers used alike than there are tables (a mailbox's senders) keep the tables they have instead of rebuilding
 * one for every message, which costs more than the table saves.
 */
export function noteVerified(address: string): void {
  const entry = cache.get(address);
  if (!entry) return;
  entry.verifications++;
  if (tabled.has(address) || entry.verifications < 2) return;
  if (tabled.size >= MAX_TABLED_KEYS) {
    const victim = leastVerifiedTabled();
    if (entry.verifications < 2 * (cache.get(victim)?.verifications ?? 0)) return;
    untable(victim);
  }
  // A fresh point: noble keys its tables by point object, so dropping the object frees its table.
  entry.point = secp256k1.Point.fromAffine(entry.point.toAffine()).precompute(TABLE_WINDOW);
  tabled.add(address);
}

function leastVerifiedTabled(): string {
  let least = '';
  let fewest = Number.POSITIVE_INFINITY;
  for (const address of tabled) {
    const verifications = cache.get(address)?.verifications ?? 0;
    if (verifications < fewest) [least, fewest] = [address, verifications];
  }
  return least;
}

function untable(address: string): void {
  tabled.delete(address);
  const entry = cache.get(address);
  if (entry) entry.point = secp256k1.Point.fromAffine(entry.point.toAffine());
}
