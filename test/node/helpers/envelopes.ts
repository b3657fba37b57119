import { buildEnvelope, parseEnvelope, serializeEnvelope, type EnvelopeInput } from '../../../lib/envelope/index.ts';
import { Identity } from '../../../lib/identity/index.ts';
import type { Envelope } from '../../../schemas/envelope.ts';

export const alice = Identity.fromSeed('envelope tests alice', 0);
export const bob = Identity.fromSeed('envelope tests bob', 0);
export const mallory = Identity.fromSeed('envelope tests mallory', 0);

export const REQUEST_DIGEST = 'model:59e3c8304bb68c45e7d3381ee2f5636ac7d7c0c76525fca1554e28ea1017cf0c';
/** An hour from now, in unix seconds. */
const inAnHour = () => BigInt(Math.floor(Date.now() / 1000) + 3600);

/** Alice → Bob, signed, with every optional field set unless overridden. */
export function aliceToBob(overrides: Partial<EnvelopeInput> = {}): Envelope {
  return buildEnvelope({
    sender: alice,
    target: bob.address,
    schemaDigest: REQUEST_DIGEST,
    payload: { request: 'What is the revenue?' },
    expires: inAnHour(),
    nonce: 42n,
    ...overrides,
  });
}

/** The envelope after a trip over the wire. */
export function overTheWire(envelope: Envelope): Envelope {
  const parsed = parseEnvelope(serializeEnvelope(envelope));
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.envelope;
}
