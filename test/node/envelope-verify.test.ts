import { bytesToHex } from '@noble/hashes/utils.js';
import { bech32 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import {
  encodePayload,
  envelopeDigest,
  MemoryReplayGuard,
  parseEnvelope,
  REPLAY_WINDOW_SECONDS,
  serializeEnvelope,
  verifyEnvelope,
  type VerifyOptions,
} from '../../lib/envelope/index.ts';
import { decodeSignature } from '../../lib/identity/index.ts';
import type { Envelope } from '../../schemas/envelope.ts';
import { alice, aliceToBob, bob, mallory, overTheWire, REQUEST_DIGEST } from './helpers/envelopes.ts';

const options = (overrides: Partial<VerifyOptions> = {}): VerifyOptions => ({
  self: bob.address,
  replay: new MemoryReplayGuard(),
  ...overrides,
});
/** Re-signs an envelope whose fields were set by hand, as a sender with Alice's key would. */
const signedByAlice = (envelope: Envelope): Envelope => ({ ...envelope, signature: alice.signDigest(envelopeDigest(envelope)) });

describe('verifyEnvelope: each refusal has its reason', () => {
  it('accepts a valid envelope and returns its payload and signed digest', async () => {
    const envelope = overTheWire(aliceToBob());
    expect(await verifyEnvelope(envelope, options())).toEqual({
      ok: true,
      payload: { request: 'What is the revenue?' },
      digestHex: bytesToHex(envelopeDigest(envelope)),
    });
  });

  it('bad_sender: the sender is not an agent address', async () => {
    const envelope = signedByAlice({ ...aliceToBob(), sender: 'agent1notanaddress' });
    expect(await verifyEnvelope(envelope, options())).toMatchObject({ ok: false, reason: 'bad_sender' });
  });

  it('wrong_target: addressed to another agent', async () => {
    const result = await verifyEnvelope(aliceToBob(), options({ self: mallory.address }));
    expect(result).toMatchObject({
      ok: false,
      reason: 'wrong_target',
      message: `envelope is addressed to ${bob.address}, not to this agent`,
    });
  });

  it('expired: expires has passed', async () => {
    const expires = BigInt(Math.floor(Date.now() / 1000) - 1);
    const result = await verifyEnvelope(aliceToBob({ expires }), options());
    expect(result).toMatchObject({ ok: false, reason: 'expired', message: expect.stringContaining(`expired at ${expires}`) });
  });

  it('a digest is remembered until the envelope expires, but never longer than the replay window (24 h)', async () => {
    const now = 1_795_000_000;
    const claims: number[] = [];
    const replay = {
      claim: async (_digest: string, until: number) => {
        claims.push(until);
        return 'claimed' as const;
      },
    };
    for (const expires of [BigInt(now + 60), BigInt(now + REPLAY_WINDOW_SECONDS + 1), 2n ** 40n, 2n ** 64n - 1n, null]) {
      expect(await verifyEnvelope(aliceToBob({ expires }), options({ nowSeconds: now, replay }))).toMatchObject({ ok: true });
    }
    const window = now + REPLAY_WINDOW_SECONDS;
    expect(claims).toEqual([now + 60, window, window, window, window]);
  });

  it('an envelope is valid up to its expiry second', async () => {
    const envelope = aliceToBob({ expires: 1_795_000_000n });
    expect(await verifyEnvelope(envelope, options({ nowSeconds: 1_795_000_000 }))).toMatchObject({ ok: true });
    expect(await verifyEnvelope(envelope, options({ nowSeconds: 1_795_000_000.5 }))).toMatchObject({ ok: false, reason: 'expired' });
  });

  it('replayed: the same envelope a second time', async () => {
    const replay = new MemoryReplayGuard();
    const text = serializeEnvelope(aliceToBob());
    const receive = () => {
      const parsed = parseEnvelope(text);
      if (!parsed.ok) throw new Error(parsed.message);
      return verifyEnvelope(parsed.envelope, options({ replay }));
    };
    expect(await receive()).toMatchObject({ ok: true });
    expect(await receive()).toMatchObject({ ok: false, reason: 'replayed', message: 'envelope was already received' });
  });

  it('replayed: also an envelope without expires or nonce (the Python SDK sends those)', async () => {
    const replay = new MemoryReplayGuard();
    const envelope = aliceToBob({ expires: null, nonce: null });
    expect(await verifyEnvelope(envelope, options({ replay }))).toMatchObject({ ok: true });
    expect(await verifyEnvelope(envelope, options({ replay }))).toMatchObject({ ok: false, reason: 'replayed' });
  });

  it('two envelopes with the same content but different nonces are both accepted', async () => {
    const replay = new MemoryReplayGuard();
    expect(await verifyEnvelope(aliceToBob({ nonce: 1n }), options({ replay }))).toMatchObject({ ok: true });
    expect(await verifyEnvelope(aliceToBob({ nonce: 2n }), options({ replay }))).toMatchObject({ ok: true });
  });

  it('unknown_schema: a schema digest the receiver does not handle', async () => {
    const result = await verifyEnvelope(aliceToBob(), options({ acceptedSchemas: new Set(['model:other']) }));
    expect(result).toMatchObject({ ok: false, reason: 'unknown_schema', message: `no handler for schema ${REQUEST_DIGEST}` });
    expect(await verifyEnvelope(aliceToBob(), options({ acceptedSchemas: new Set([REQUEST_DIGEST]) }))).toMatchObject({ ok: true });
  });

  it.each([
    ['not base64', '%%%not base64%%%', 'payload is not base64 of UTF-8 text'],
    ['base64 of bytes that are not UTF-8', 'gICA', 'payload is not base64 of UTF-8 text'],
    ['base64 of text that is not JSON', encodePayload('{"request":'), 'payload is not JSON'],
  ])('malformed_payload: a correctly signed payload that is %s', async (_, payload, message) => {
    const result = await verifyEnvelope(signedByAlice({ ...aliceToBob(), payload }), options());
    expect(result).toEqual({ ok: false, reason: 'malformed_payload', message });
  });

  it('malformed_payload: a correctly signed envelope without payload', async () => {
    expect(await verifyEnvelope(signedByAlice({ ...aliceToBob(), payload: null }), options())).toMatchObject({
      ok: false,
      reason: 'malformed_payload',
    });
  });

  it.each([
    ['unsigned', null],
    ['signed by someone else', (envelope: Envelope) => mallory.signDigest(envelopeDigest(envelope))],
    ['signed with garbage', () => 'sig1qqqqqqqq'],
  ])('bad_signature: an envelope %s', async (_, sign) => {
    const envelope = aliceToBob();
    const signature = sign === null ? null : sign(envelope);
    expect(await verifyEnvelope({ ...envelope, signature }, options())).toMatchObject({ ok: false, reason: 'bad_signature' });
  });

  it('a forged copy does not burn the digest: the genuine envelope is still accepted after it', async () => {
    const replay = new MemoryReplayGuard();
    const genuine = aliceToBob();
    const forged = { ...genuine, signature: mallory.signDigest(envelopeDigest(genuine)) };
    expect(await verifyEnvelope(forged, options({ replay }))).toMatchObject({ ok: false, reason: 'bad_signature' });
    expect(await verifyEnvelope(genuine, options({ replay }))).toMatchObject({ ok: true });
  });

  it('version and protocol_digest are not signed, as in uAgents: changing them does not invalidate the signature', async () => {
    const envelope = { ...aliceToBob(), version: 2, protocol_digest: 'proto:changed' };
    expect(await verifyEnvelope(envelope, options())).toMatchObject({ ok: true });
  });
});

/**
 * Tampering on the wire: every byte of every signed field is changed in turn, and every such envelope
 * must be refused. The receiver is made to accept everything else (its own address is the tampered
 * target, the clock is at 0 so no expiry applies), so the refusal comes from the signature.
 */
describe('tampering with any signed byte is refused', () => {
  const original = aliceToBob({ expires: 1_795_000_000n, nonce: 9_223_372_036_854_775_808n });
  const lenient = (envelope: Envelope) => options({ self: envelope.target, nowSeconds: 0 });

  async function refusedAfterTheWire(tampered: Envelope): Promise<string> {
    const parsed = parseEnvelope(serializeEnvelope(tampered));
    if (!parsed.ok) return parsed.reason;
    const result = await verifyEnvelope(parsed.envelope, lenient(parsed.envelope));
    expect(result.ok).toBe(false);
    return result.ok ? 'accepted' : result.reason;
  }

  /** Another character of the same kind, so that the field stays well-formed where it can. */
  const flipCharacter = (text: string, position: number) => {
    const char = text[position]!;
    const alphabet =
      /[0-9a-f]/.test(char) && /^[0-9a-f-]+$/.test(text)
        ? '0123456789abcdef'
        : 'qpzry9x8gf2tvdw0s3jn54khce6mua7lABCDEFGHIJKLMNOPQRSTUVWXYZ+/=:';
    return text.slice(0, position) + alphabet[(alphabet.indexOf(char) + 1) % alphabet.length] + text.slice(position + 1);
  };

  it('the untampered envelope passes the same lenient check', async () => {
    expect(await verifyEnvelope(overTheWire(original), lenient(original))).toMatchObject({ ok: true });
  });

  for (const field of ['target', 'session', 'schema_digest', 'payload'] as const) {
    it(`${field}: every character`, async () => {
      const text = original[field]!;
      const reasons = new Set<string>();
      for (let position = 0; position < text.length; position++) {
        if (text[position] === '-') continue;
        reasons.add(await refusedAfterTheWire({ ...original, [field]: flipCharacter(text, position) }));
      }
      expect([...reasons]).toEqual(['bad_signature']);
    });
  }

  it('sender: every character (the address checksum catches it)', async () => {
    for (let position = 'agent1'.length; position < original.sender.length; position++) {
      expect(await refusedAfterTheWire({ ...original, sender: flipCharacter(original.sender, position) })).toBe('bad_sender');
    }
  });

  it('sender: every byte of the public key, re-encoded as a well-formed address', async () => {
    const publicKey = bech32.fromWords(bech32.decode(original.sender as `${string}1${string}`, false).words);
    const reasons = new Set<string>();
    for (let position = 0; position < publicKey.length; position++) {
      const tampered = Uint8Array.from(publicKey);
      tampered[position]! ^= 0x01;
      reasons.add(await refusedAfterTheWire({ ...original, sender: bech32.encode('agent', bech32.toWords(tampered), false) }));
    }
    expect([...reasons].every((reason) => reason === 'bad_sender' || reason === 'bad_signature')).toBe(true);
  });

  for (const field of ['expires', 'nonce'] as const) {
    it(`${field}: every bit of its 8 bytes`, async () => {
      for (let bit = 0; bit < 64; bit++) {
        expect(await refusedAfterTheWire({ ...original, [field]: original[field]! ^ (1n << BigInt(bit)) })).toBe('bad_signature');
      }
    });

    it(`${field}: removed`, async () => {
      expect(await refusedAfterTheWire({ ...original, [field]: null })).toBe('bad_signature');
    });
  }

  it('signature: every byte of r||s, re-encoded as a well-formed signature', async () => {
    const compact = decodeSignature(original.signature!)!;
    for (let position = 0; position < compact.length; position++) {
      const tampered = Uint8Array.from(compact);
      tampered[position]! ^= 0x80;
      expect(await refusedAfterTheWire({ ...original, signature: bech32.encode('sig', bech32.toWords(tampered), false) })).toBe(
        'bad_signature',
      );
    }
  });

  it('signature: every character of its text', async () => {
    for (let position = 'sig1'.length; position < original.signature!.length; position++) {
      expect(await refusedAfterTheWire({ ...original, signature: flipCharacter(original.signature!, position) })).toBe('bad_signature');
    }
  });
});
