import { z } from 'zod';

const U64_MESSAGE = 'must be an unsigned 64-bit integer (0 to 18446744073709551615)';

/** An unsigned 64-bit integer; kept as bigint because uAgents uses values above 2^53 (see test/fixtures/interop). */
const u64 = z
  .union([z.bigint(), z.number().int(U64_MESSAGE)], { error: U64_MESSAGE })
  .transform((value) => BigInt(value))
  .refine((value) => value >= 0n && value < 1n << 64n, U64_MESSAGE);

const digestString = z.string().max(200);

/**
 * The uAgents `Envelope` as it travels between agents (JSON, this field order). The session is
 * lower-cased, as Python's `str(UUID)` writes it into the signed digest.
 */
export const envelopeSchema = z.object({
  version: z.number().int(),
  sender: z.string().min(1).max(200),
  target: z.string().min(1).max(200),
  session: z
    .string()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a UUID (8-4-4-4-12 hex digits)')
    .transform((session) => session.toLowerCase()),
  schema_digest: digestString,
  protocol_digest: digestString.nullish(),
  payload: z.string().nullish(),
  expires: u64.nullish(),
  nonce: u64.nullish(),
  signature: z.string().max(400).nullish(),
});

export type Envelope = z.output<typeof envelopeSchema>;
