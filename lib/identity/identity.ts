import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { encodeAddress } from './address.ts';
import { encodeSignature, verifyDigest } from './signature.ts';

/** uagents-core derives keys under this prefix. */
const KEY_DERIVATION_PREFIX = 'agent';
export const MAX_IDENTITY_INDEX = 255;

export class IdentityError extends Error {
  override name = 'IdentityError';
}

/**
 * An agent's secp256k1 identity, derived from a seed string and an index exactly as
 * uagents-core `Identity.from_seed(seed, index)` does, so the same seed gives the same address in Python.
 */
export class Identity {
  readonly address: string;
  readonly publicKey: Uint8Array;

  private constructor(private readonly privateKey: Uint8Array) {
    this.publicKey = secp256k1.getPublicKey(privateKey, true);
    this.address = encodeAddress(this.publicKey);
  }

  static fromSeed(seed: string, index: number): Identity {
    if (typeof seed !== 'string' || seed.length === 0) throw new IdentityError('seed must be a non-empty string');
    if (!Number.isInteger(index) || index < 0 || index > MAX_IDENTITY_INDEX) {
      throw new IdentityError(`index must be an integer from 0 to ${MAX_IDENTITY_INDEX}, got ${index}`);
    }
    const prefixDigest = sha256(concatBytes(utf8ToBytes(KEY_DERIVATION_PREFIX), Uint8Array.of(index)));
    const seedDigest = sha256(utf8ToBytes(seed));
    return new Identity(sha256(concatBytes(prefixDigest, seedDigest)));
  }

  get publicKeyHex(): string {
    return bytesToHex(this.publicKey);
  }

  get privateKeyHex(): string {
    return bytesToHex(this.privateKey);
  }

  /** Signs a 32-byte digest; deterministic (RFC 6979) and low-s. Returns the `sig1…` form. */
  signDigest(digest: Uint8Array): string {
    return encodeSignature(secp256k1.sign(digest, this.privateKey, { prehash: false }));
  }

  /** Signs sha256(utf8(data)), as uagents-core `Identity.sign(data)` does for registration challenges. */
  sign(data: string | Uint8Array): string {
    return this.signDigest(sha256(typeof data === 'string' ? utf8ToBytes(data) : data));
  }

  verifyDigest(digest: Uint8Array, signature: string): boolean {
    return verifyDigest(this.address, digest, signature);
  }
}
