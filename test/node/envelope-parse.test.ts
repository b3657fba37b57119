import { describe, expect, it } from 'vitest';
import { envelopeDigest, parseEnvelope, serializeEnvelope } from '../../lib/envelope/index.ts';
import { aliceToBob } from './helpers/envelopes.ts';

/** parseEnvelope never throws: every body that is not an envelope gets `malformed_envelope` and a message naming the problem. */
const valid = serializeEnvelope(aliceToBob());
/** The valid envelope's JSON text with one field's raw JSON replaced (or removed with `undefined`). */
function withField(field: string, rawJson: string | undefined): string {
  const pattern = new RegExp(`"${field}":(?:"[^"]*"|[^,}]*)`);
  if (!pattern.test(valid)) throw new Error(`field ${field} not in ${valid}`);
  return rawJson === undefined
    ? valid.replace(pattern, '').replace(',,', ',').replace('{,', '{')
    : valid.replace(pattern, `"${field}":${rawJson}`);
}

function refusal(text: string) {
  const result = parseEnvelope(text);
  if (result.ok) throw new Error(`accepted: ${text}`);
  expect(result.reason).toBe('malformed_envelope');
  return result.message;
}

describe('parseEnvelope', () => {
  it('accepts a valid envelope', () => {
    expect(parseEnvelope(valid).ok).toBe(true);
  });

  it.each([
    ['not JSON', '{sender: alice}'],
    ['cut short', valid.slice(0, -5)],
    ['empty', ''],
  ])('a body that is %s: "body is not valid JSON"', (_, text) => {
    expect(refusal(text)).toMatch(/^body is not valid JSON/);
  });

  it.each([
    ['an array', '[]'],
    ['a string', '"envelope"'],
    ['null', 'null'],
    ['a number', '42'],
  ])('JSON that is %s: "envelope must be a JSON object"', (what, text) => {
    expect(refusal(text)).toBe(`envelope must be a JSON object, got ${what}`);
  });

  it.each(['version', 'sender', 'target', 'session', 'schema_digest'])('a missing %s is named', (field) => {
    expect(refusal(withField(field, undefined))).toBe(`envelope field ${field} is missing`);
  });

  it('optional fields may be absent (Python omits nothing, but other senders may)', () => {
    let text = valid;
    for (const field of ['protocol_digest', 'expires', 'nonce']) text = text.replace(new RegExp(`"${field}":[^,}]*,?`), '');
    const result = parseEnvelope(text);
    expect(result.ok && result.envelope.expires == null && result.envelope.nonce == null).toBe(true);
  });

  it.each([
    ['sender', '42', /sender: .*expected string, received number/],
    ['target', 'null', /target: .*expected string, received null/],
    ['version', '"1"', /version: .*expected number, received string/],
    ['schema_digest', '["model:x"]', /schema_digest: .*expected string, received array/],
    ['payload', '{"request":"x"}', /payload: .*expected string, received object/],
    ['signature', 'true', /signature: .*expected string, received boolean/],
  ])('a %s of the wrong type is named', (field, raw, message) => {
    expect(refusal(withField(field, raw))).toMatch(message);
  });

  it.each([
    '"not-a-uuid"',
    '"6a015b66-5e4a-429c-9be7-df00cba497d"',
    '"6a015b665e4a429c9be7df00cba497dd"',
    '"6a015b66-5e4a-429c-9be7-df00cba497dg"',
    '42',
  ])('a session %s that is not a UUID is refused', (raw) => {
    expect(refusal(withField('session', raw))).toMatch(/^envelope field session: /);
  });

  it('an upper-case session is read as Python reads it (lower-cased, as str(UUID) signs it)', () => {
    const envelope = aliceToBob();
    const result = parseEnvelope(withField('session', `"${envelope.session.toUpperCase()}"`));
    expect(result.ok && result.envelope.session).toBe(envelope.session);
  });

  it('an envelope built with an upper-case session is signed over the lower-case form receivers read', async () => {
    const session = crypto.randomUUID().toUpperCase();
    const envelope = aliceToBob({ session });
    expect(envelope.session).toBe(session.toLowerCase());
    const result = parseEnvelope(serializeEnvelope({ ...envelope, session }));
    if (!result.ok) throw new Error(result.message);
    expect(envelopeDigest(result.envelope)).toEqual(envelopeDigest(envelope));
  });

  it.each([
    ['expires', '-1'],
    ['nonce', '-1'],
    ['expires', '18446744073709551616'],
    ['nonce', '18446744073709551616'],
    ['nonce', '99999999999999999999999'],
    ['expires', '1.5'],
    ['nonce', '1e30'],
    ['expires', '"1795000000"'],
    ['nonce', 'true'],
  ])('%s %s is refused as not an unsigned 64-bit integer', (field, raw) => {
    expect(refusal(withField(field, raw))).toBe(`envelope field ${field}: must be an unsigned 64-bit integer (0 to 18446744073709551615)`);
  });

  it.each(['0', '9007199254740993', '9223372036854775808', '18446744073709551615'])(
    'nonce and expires %s are kept exact, and written back as they came',
    (raw) => {
      const text = withField('nonce', raw).replace(/"expires":\d+/, `"expires":${raw}`);
      const result = parseEnvelope(text);
      if (!result.ok) throw new Error(result.message);
      expect(result.envelope.nonce).toBe(BigInt(raw));
      expect(result.envelope.expires).toBe(BigInt(raw));
      expect(serializeEnvelope(result.envelope)).toBe(text);
    },
  );

  it('a nonce above 2^53 changes the digest when it changes by one (no rounding to a double)', () => {
    const parse = (raw: string) => {
      const result = parseEnvelope(withField('nonce', raw));
      if (!result.ok) throw new Error(result.message);
      return envelopeDigest(result.envelope);
    };
    expect(parse('9007199254740993')).not.toEqual(parse('9007199254740992'));
  });
});
