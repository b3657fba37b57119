import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { bech32 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import {
  AddressError,
  decodeAddress,
  decodeSignature,
  encodeAddress,
  Identity,
  IdentityError,
  isValidAddress,
  verifyDigest,
} from '../../lib/identity/index.ts';
import { identityVectors, signatureVectors } from './helpers/vectors.ts';

const identities = identityVectors();
const signatures = signatureVectors();
const CURVE_ORDER = secp256k1.Point.CURVE().n;
const sOf = (signature: string) => BigInt(`0x${bytesToHex(decodeSignature(signature)!.slice(32))}`);

describe('Identity.fromSeed (uagents-core vectors)', () => {
  for (const vector of identities) {
    it(`seed ${JSON.stringify(vector.seed.slice(0, 30))}${vector.seed.length > 30 ? '…' : ''} index ${vector.index}`, () => {
      const identity = Identity.fromSeed(vector.seed, vector.index);
      expect(identity.privateKeyHex).toBe(vector.private_key_hex);
      expect(identity.publicKeyHex).toBe(vector.public_key_hex);
      expect(identity.address).toBe(vector.address);
      expect(bytesToHex(decodeAddress(vector.address))).toBe(vector.public_key_hex);
      expect(encodeAddress(hexToBytes(vector.public_key_hex))).toBe(vector.address);
    });
  }

  it('accepts every index from 0 to 255 and gives each its own key', () => {
    const addresses = new Set(Array.from({ length: 256 }, (_, index) => Identity.fromSeed('one seed', index).address));
    expect(addresses.size).toBe(256);
  });

  it.each([
    ['-1', -1],
    ['256', 256],
    ['1.5', 1.5],
    ['NaN', Number.NaN],
  ])('refuses index %s with an IdentityError', (_, index) => {
    expect(() => Identity.fromSeed('seed', index)).toThrow(IdentityError);
    expect(() => Identity.fromSeed('seed', index)).toThrow(/index must be an integer from 0 to 255/);
  });

  it('refuses an empty seed', () => {
    expect(() => Identity.fromSeed('', 0)).toThrow(/seed must be a non-empty string/);
  });
});

describe('signatures (uagents-core vectors)', () => {
  it('the vectors include high-s signatures, valid and invalid entries, and sign(data) entries', () => {
    expect(signatures.filter((vector) => vector.valid && vector.s_is_high).length).toBeGreaterThan(0);
    expect(signatures.filter((vector) => !vector.valid).length).toBeGreaterThan(0);
    expect(signatures.filter((vector) => vector.form === 'sign(data)').length).toBeGreaterThan(0);
  });

  for (const [position, vector] of signatures.entries()) {
    const label = `#${position} ${vector.form ?? 'sign_digest'}${vector.s_is_high ? ' high-s' : ''}: ${vector.valid ? 'verifies' : `is rejected (${vector.why})`}`;
    it(label, () => {
      if (vector.s_is_high !== undefined) expect(sOf(vector.signature) > CURVE_ORDER / 2n).toBe(vector.s_is_high);
      if (vector.form === 'sign(data)') expect(bytesToHex(sha256(utf8ToBytes(vector.data_utf8!)))).toBe(vector.digest_hex);
      expect(verifyDigest(vector.address, hexToBytes(vector.digest_hex), vector.signature)).toBe(vector.valid);
      if (vector.seed !== undefined) {
        const signer = Identity.fromSeed(vector.seed, vector.index ?? 0);
        expect(signer.address).toBe(vector.address);
        expect(signer.verifyDigest(hexToBytes(vector.digest_hex), vector.signature)).toBe(vector.valid);
      }
    });
  }
});

describe('our signatures', () => {
  const alice = Identity.fromSeed('alice test seed', 0);
  const bob = Identity.fromSeed('alice test seed', 1);
  const digest = sha256(utf8ToBytes('a message'));

  it('verify against the signer address only, and are deterministic and low-s', () => {
    const signature = alice.signDigest(digest);
    expect(signature).toMatch(/^sig1/);
    expect(verifyDigest(alice.address, digest, signature)).toBe(true);
    expect(verifyDigest(bob.address, digest, signature)).toBe(false);
    expect(verifyDigest(alice.address, sha256(utf8ToBytes('another message')), signature)).toBe(false);
    expect(alice.signDigest(digest)).toBe(signature);
    expect(sOf(signature) <= CURVE_ORDER / 2n).toBe(true);
  });

  it('sign(data) signs sha256 of the UTF-8 data, as uagents-core does for registration challenges', () => {
    const data = 'challenge-ünïcødé';
    expect(alice.sign(data)).toBe(alice.signDigest(sha256(utf8ToBytes(data))));
    expect(verifyDigest(alice.address, sha256(utf8ToBytes(data)), alice.sign(data))).toBe(true);
  });

  it('a high-s twin of our signature verifies too (Python verifiers accept both)', () => {
    const compact = decodeSignature(alice.signDigest(digest))!;
    const lowS = secp256k1.Signature.fromBytes(compact);
    const twin = bech32.encode('sig', bech32.toWords(new secp256k1.Signature(lowS.r, CURVE_ORDER - lowS.s).toBytes()), false);
    expect(sOf(twin) > CURVE_ORDER / 2n).toBe(true);
    expect(verifyDigest(alice.address, digest, twin)).toBe(true);
  });

  it.each([
    ['not bech32', 'not a signature'],
    ['the wrong prefix', bech32.encode('agent', bech32.toWords(new Uint8Array(64).fill(1)), false)],
    ['the wrong length', bech32.encode('sig', bech32.toWords(new Uint8Array(63).fill(1)), false)],
    ['empty', ''],
  ])('a signature that is %s is rejected without throwing', (_, signature) => {
    expect(verifyDigest(alice.address, digest, signature)).toBe(false);
  });

  it('a signature checked against an invalid address is rejected without throwing', () => {
    expect(verifyDigest('agent1nothing', digest, alice.signDigest(digest))).toBe(false);
  });
});

describe('addresses', () => {
  const valid = identities[0]!.address;
  const publicKey = decodeAddress(valid);
  const flipCharacter = (text: string, position: number) => {
    const alphabet = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
    const next = alphabet[(alphabet.indexOf(text[position]!) + 1) % alphabet.length]!;
    return text.slice(0, position) + next + text.slice(position + 1);
  };

  it('every vector address is valid', () => {
    for (const vector of identities) expect(isValidAddress(vector.address)).toBe(true);
  });

  it.each([
    ['a wrong prefix', bech32.encode('sig', bech32.toWords(publicKey), false), /prefix is "sig", expected "agent"/],
    ['a bad checksum', flipCharacter(valid, valid.length - 1), /checksum does not match/],
    ['a changed data character', flipCharacter(valid, 10), /checksum does not match/],
    ['a missing character', valid.slice(0, -1), /checksum does not match/],
    ['32 bytes', bech32.encode('agent', bech32.toWords(publicKey.slice(1)), false), /holds 32 bytes, expected a 33-byte public key/],
    [
      '34 bytes',
      bech32.encode('agent', bech32.toWords(Uint8Array.of(...publicKey, 0)), false),
      /holds 34 bytes, expected a 33-byte public key/,
    ],
    ['no separator', 'agentqqqq', /no "1" between prefix and data/],
    ['mixed case', valid.slice(0, 10) + valid.slice(10).toUpperCase(), /not valid bech32/],
    ['nothing', '', /address is empty/],
  ])('an address with %s is refused with a clear AddressError', (_, address, message) => {
    expect(() => decodeAddress(address)).toThrow(AddressError);
    expect(() => decodeAddress(address)).toThrow(message);
    expect(isValidAddress(address)).toBe(false);
  });

  it('an all-uppercase address is the same address (bech32 is case-insensitive)', () => {
    expect(bytesToHex(decodeAddress(valid.toUpperCase()))).toBe(bytesToHex(publicKey));
  });
});
