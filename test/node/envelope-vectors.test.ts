import { bytesToHex } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import {
  buildEnvelope,
  decodePayload,
  envelopeDigest,
  MemoryReplayGuard,
  parseEnvelope,
  serializeEnvelope,
  stringifyJsonExact,
  verifyEnvelope,
} from '../../lib/envelope/index.ts';
import { Identity, verifyDigest } from '../../lib/identity/index.ts';
import type { Envelope } from '../../schemas/envelope.ts';
import { CHAT_PROTOCOL } from '../../schemas/messages.ts';
import { envelopeVectors, identityVectors, type VectorEnvelope } from './helpers/vectors.ts';

/** Envelopes signed by uagents-core (test/fixtures/interop/envelope.json), as they travel. */
const vectors = envelopeVectors();
const identities = identityVectors();

/** The wire text of a vector envelope: compact JSON in the file's field order, u64 values as written. */
const wireText = (envelope: VectorEnvelope) => stringifyJsonExact(envelope);

function parsed(text: string): Envelope {
  const result = parseEnvelope(text);
  if (!result.ok) throw new Error(result.message);
  return result.envelope;
}

/** A moment at which the vector envelope has not expired. */
const before = (envelope: VectorEnvelope) => (envelope.expires == null ? Date.now() / 1000 : Number(envelope.expires) - 60);

function identityOf(address: string): Identity {
  const vector = identities.find((candidate) => candidate.address === address);
  if (!vector) throw new Error(`no identity vector has the address ${address}`);
  return Identity.fromSeed(vector.seed, vector.index);
}

describe('envelope vectors', () => {
  it('include an envelope with neither expires nor nonce, and one with a nonce above 2^53', () => {
    expect(vectors.envelopes.some(({ envelope }) => envelope.expires == null && envelope.nonce == null)).toBe(true);
    expect(vectors.envelopes.some(({ envelope }) => typeof envelope.nonce === 'bigint' && envelope.nonce > 2n ** 53n)).toBe(true);
  });

  for (const [position, vector] of vectors.envelopes.entries()) {
    describe(`envelope #${position} (expires ${vector.envelope.expires}, nonce ${vector.envelope.nonce})`, () => {
      const text = wireText(vector.envelope);

      it('parses and serialises back to the identical text', () => {
        expect(serializeEnvelope(parsed(text))).toBe(text);
      });

      it('keeps expires and nonce exact', () => {
        const envelope = parsed(text);
        expect(envelope.expires).toBe(vector.envelope.expires == null ? null : BigInt(vector.envelope.expires));
        expect(envelope.nonce).toBe(vector.envelope.nonce == null ? null : BigInt(vector.envelope.nonce));
      });

      it('has the signed digest Python computed', () => {
        expect(bytesToHex(envelopeDigest(parsed(text)))).toBe(vector.digest_hex);
      });

      it('verifies, with the payload Python encoded', async () => {
        const envelope = parsed(text);
        expect(decodePayload(envelope.payload!)).toBe(vector.payload_json);
        const result = await verifyEnvelope(envelope, {
          self: envelope.target,
          replay: new MemoryReplayGuard(),
          nowSeconds: before(vector.envelope),
        });
        expect(result).toEqual({ ok: true, payload: JSON.parse(vector.payload_json), digestHex: vector.digest_hex });
      });

      it('built again from its fields by us: same payload, digest and text but for our own (verifying) signature', () => {
        const rebuilt = buildEnvelope({
          sender: identityOf(vector.envelope.sender),
          target: vector.envelope.target,
          session: vector.envelope.session,
          schemaDigest: vector.envelope.schema_digest,
          protocolDigest: vector.envelope.protocol_digest,
          payload: JSON.parse(vector.payload_json),
          expires: vector.envelope.expires,
          nonce: vector.envelope.nonce,
        });
        expect(rebuilt.payload).toBe(vector.envelope.payload);
        expect(bytesToHex(envelopeDigest(rebuilt))).toBe(vector.digest_hex);
        expect(serializeEnvelope({ ...rebuilt, signature: vector.envelope.signature })).toBe(text);
        expect(verifyDigest(rebuilt.sender, envelopeDigest(rebuilt), rebuilt.signature!)).toBe(true);
      });
    });
  }

  it('chat-protocol envelopes carry the digests the Python SDK sends', () => {
    const chat = vectors.envelopes.filter(({ envelope }) => envelope.protocol_digest === vectors.protocol_digests.AgentChatProtocol);
    expect(chat.length).toBeGreaterThan(0);
    for (const { envelope } of chat) expect(envelope.schema_digest).toBe(vectors.schema_digests['ChatMessage (AgentChatProtocol)']);
    expect(CHAT_PROTOCOL).toEqual({
      schemaDigest: vectors.schema_digests['ChatMessage (AgentChatProtocol)'],
      protocolDigest: vectors.protocol_digests.AgentChatProtocol,
    });
  });

  for (const vector of vectors.tampered) {
    it(`a tampered envelope is rejected: ${vector.why}`, async () => {
      const envelope = parsed(wireText(vector.envelope));
      const result = await verifyEnvelope(envelope, {
        self: envelope.target,
        replay: new MemoryReplayGuard(),
        nowSeconds: before(vector.envelope),
      });
      expect(result).toMatchObject({ ok: false, reason: 'bad_signature' });
    });
  }
});
