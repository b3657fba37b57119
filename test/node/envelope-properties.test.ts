import { bytesToHex } from '@noble/hashes/utils.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildEnvelope,
  envelopeDigest,
  MemoryReplayGuard,
  parseEnvelope,
  serializeEnvelope,
  verifyEnvelope,
} from '../../lib/envelope/index.ts';
import { Identity, verifyDigest } from '../../lib/identity/index.ts';

/** Properties over random identities, payloads and u64 values (fast-check shrinks any failure to a minimal case). */
const U64_MAX = 2n ** 64n - 1n;
const seed = fc.string({ minLength: 1, maxLength: 64, unit: 'grapheme' });
const index = fc.integer({ min: 0, max: 255 });
const identity = fc.tuple(seed, index).map(([text, n]) => Identity.fromSeed(text, n));
/** JSON payloads with any Unicode text (written as \uXXXX escapes, as Python does), as they survive a JSON round trip (-0 becomes 0). */
const payload = fc.jsonValue({ stringUnit: 'binary' }).map((value) => JSON.parse(JSON.stringify(value)) as unknown);
/** Edge values are drawn often: 0, around 2^53, 2^63 and 2^64-1. */
const u64 = fc.oneof(
  fc.constantFrom(0n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 63n, U64_MAX - 1n, U64_MAX),
  fc.bigInt({ min: 0n, max: U64_MAX }),
);
const optionalU64 = fc.option(u64, { nil: null });

const RUNS = { numRuns: 60 };

describe('envelope properties', () => {
  it('sign → serialise → parse → verify holds for any identity, target, payload, expires and nonce', async () => {
    await fc.assert(
      fc.asyncProperty(identity, identity, payload, optionalU64, optionalU64, async (sender, receiver, message, expires, nonce) => {
        const text = serializeEnvelope(
          buildEnvelope({ sender, target: receiver.address, schemaDigest: 'model:test', payload: message, expires, nonce }),
        );
        const parsed = parseEnvelope(text);
        if (!parsed.ok) throw new Error(parsed.message);
        const result = await verifyEnvelope(parsed.envelope, { self: receiver.address, replay: new MemoryReplayGuard(), nowSeconds: 0 });
        expect(result).toEqual({ ok: true, payload: message, digestHex: bytesToHex(envelopeDigest(parsed.envelope)) });
      }),
      RUNS,
    );
  });

  it("a signature verifies against its signer's address and no other", async () => {
    await fc.assert(
      fc.asyncProperty(identity, identity, payload, async (signer, other, message) => {
        fc.pre(signer.address !== other.address);
        const envelope = buildEnvelope({ sender: signer, target: other.address, schemaDigest: 'model:test', payload: message });
        const digest = envelopeDigest(envelope);
        expect(verifyDigest(signer.address, digest, envelope.signature!)).toBe(true);
        expect(verifyDigest(other.address, digest, envelope.signature!)).toBe(false);
        // The same envelope claimed in the other identity's name.
        const claimed = { ...envelope, sender: other.address };
        const result = await verifyEnvelope(claimed, { self: other.address, replay: new MemoryReplayGuard() });
        expect(result).toMatchObject({ ok: false, reason: 'bad_signature' });
      }),
      RUNS,
    );
  });

  it('serialise → parse is the identity, u64 values up to 2^64-1 included, and serialising again gives the same text', () => {
    const sender = Identity.fromSeed('properties sender', 0);
    fc.assert(
      fc.property(
        fc.uuid(),
        payload,
        optionalU64,
        optionalU64,
        fc.option(fc.string({ maxLength: 80 }), { nil: null }),
        (session, message, expires, nonce, protocol) => {
          const envelope = buildEnvelope({
            sender,
            target: sender.address,
            session,
            schemaDigest: 'model:x',
            protocolDigest: protocol,
            payload: message,
            expires,
            nonce,
          });
          const text = serializeEnvelope(envelope);
          const parsed = parseEnvelope(text);
          if (!parsed.ok) throw new Error(parsed.message);
          expect(parsed.envelope).toEqual(envelope);
          expect(serializeEnvelope(parsed.envelope)).toBe(text);
          expect(envelopeDigest(parsed.envelope)).toEqual(envelopeDigest(envelope));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('parseEnvelope never throws, whatever the body', () => {
    const valid = serializeEnvelope(
      buildEnvelope({ sender: Identity.fromSeed('x', 0), target: 'agent1x', schemaDigest: 'model:x', payload: {} }),
    );
    const mangled = fc
      .tuple(fc.nat({ max: valid.length }), fc.nat({ max: 20 }), fc.string({ maxLength: 20 }))
      .map(([at, cut, insert]) => valid.slice(0, at) + insert + valid.slice(at + cut));
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), mangled), (text) => {
        const result = parseEnvelope(text);
        expect(result.ok || (result.reason === 'malformed_envelope' && result.message.length > 0)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
