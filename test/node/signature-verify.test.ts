import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { decodeSignature, encodeAddress, Identity, verifyDigest } from '../../lib/identity/index.ts';
import { encodeSignature } from '../../lib/identity/signature.ts';

const CURVE_ORDER = secp256k1.Point.CURVE().n;
const scalarBytes = (value: bigint) => hexToBytes(value.toString(16).padStart(64, '0'));
const signatureOf = (r: bigint, s: bigint) => encodeSignature(new Uint8Array([...scalarBytes(r), ...scalarBytes(s)]));
const rsOf = (signature: string) => {
  const compact = decodeSignature(signature)!;
  return { r: BigInt(`0x${bytesToHex(compact.slice(0, 32))}`), s: BigInt(`0x${bytesToHex(compact.slice(32))}`) };
};
/** noble's own verification of the same signature: the reference every answer is compared with. */
const nobleVerifies = (identity: Identity, digest: Uint8Array, signature: string) =>
  secp256k1.verify(decodeSignature(signature)!, digest, hexToBytes(identity.publicKeyHex), { prehash: false, lowS: false });

/**
 * verifyDigest keeps each peer's key as a point and, from its second valid signature on, a precomputed
 * table of it: every answer, before and after, is noble's own.
 */
describe('verifyDigest with cached and tabled keys', () => {
  it('agrees with noble on valid, high-s, tampered and foreign signatures, from the first message to the tenth', () => {
    const peer = Identity.fromSeed('signature cache peer', 0);
    const stranger = Identity.fromSeed('signature cache stranger', 0);
    for (let message = 0; message < 10; message++) {
      const digest = sha256(utf8ToBytes(`message ${message}`));
      const signature = peer.signDigest(digest);
      const { r, s } = rsOf(signature);
      const cases = [
        { signature, valid: true },
        { signature: signatureOf(r, CURVE_ORDER - s), valid: true },
        { signature: signatureOf(r, (s + 1n) % CURVE_ORDER), valid: false },
        { signature: signatureOf((r + 1n) % CURVE_ORDER, s), valid: false },
        { signature: stranger.signDigest(digest), valid: false },
      ];
      for (const { signature: candidate, valid } of cases) {
        expect(verifyDigest(peer.address, digest, candidate)).toBe(valid);
        expect(nobleVerifies(peer, digest, candidate)).toBe(valid);
      }
      expect(verifyDigest(peer.address, sha256(utf8ToBytes(`another ${message}`)), signature)).toBe(false);
    }
  });

  it('refuses r or s of zero or not below the curve order, and digests that are not 32 bytes', () => {
    const peer = Identity.fromSeed('signature cache bounds', 0);
    const digest = sha256(utf8ToBytes('bounds'));
    for (let round = 0; round < 3; round++) expect(verifyDigest(peer.address, digest, peer.signDigest(digest))).toBe(true);
    const { r, s } = rsOf(peer.signDigest(digest));
    for (const [badR, badS] of [
      [0n, s],
      [r, 0n],
      [r + CURVE_ORDER, s],
      [r, s + CURVE_ORDER],
      [CURVE_ORDER, s],
    ] as const) {
      if (badR >= 2n ** 256n || badS >= 2n ** 256n) continue;
      expect(verifyDigest(peer.address, digest, signatureOf(badR, badS))).toBe(false);
    }
    expect(verifyDigest(peer.address, digest.slice(0, 31), peer.signDigest(digest))).toBe(false);
    expect(verifyDigest(peer.address, new Uint8Array([...digest, 0]), peer.signDigest(digest))).toBe(false);
  });

  it('many peers, each heard from a few times, each still verified exactly as noble does (more peers than tables: tables kept, a key displacing one only once verified twice as often)', () => {
    const peers = Array.from({ length: 40 }, (_, index) => Identity.fromSeed(`signature cache crowd ${index}`, 0));
    for (let round = 0; round < 3; round++) {
      for (const [index, peer] of peers.entries()) {
        const digest = sha256(utf8ToBytes(`crowd ${round} ${index}`));
        const signature = peer.signDigest(digest);
        expect(verifyDigest(peer.address, digest, signature)).toBe(true);
        const other = peers[(index + 1) % peers.length]!;
        expect(verifyDigest(other.address, digest, signature)).toBe(false);
      }
    }
  });

  it('an address that is not a key on the curve verifies nothing', () => {
    const digest = sha256(utf8ToBytes('off the curve'));
    const offCurve = encodeAddress(new Uint8Array([0x02, ...new Uint8Array(32).fill(0)]));
    expect(verifyDigest(offCurve, digest, Identity.fromSeed('any', 0).signDigest(digest))).toBe(false);
  });
});
