import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { parseJsonExact } from '../../../lib/envelope/index.ts';

/**
 * The uAgents interop vectors (test/fixtures/interop, produced by Python's uagents-core). Parsed with zod so
 * that a changed file format fails here, and losslessly so that u64 values above 2^53 stay exact.
 */
const VECTORS_DIR = resolve(import.meta.dirname, '../../fixtures/interop');

const readVectorText = (name: string): string => readFileSync(resolve(VECTORS_DIR, name), 'utf8');

const hex = z.string().regex(/^[0-9a-f]+$/);

const identityVectorSchema = z.object({
  seed: z.string(),
  index: z.number().int(),
  private_key_hex: hex.length(64),
  public_key_hex: hex.length(66),
  address: z.string(),
});

/** Entries to reject carry no seed, index or s_is_high. */
const signatureVectorSchema = z.object({
  address: z.string(),
  seed: z.string().optional(),
  index: z.number().int().optional(),
  digest_hex: hex.length(64),
  signature: z.string(),
  s_is_high: z.boolean().optional(),
  valid: z.boolean(),
  form: z.literal('sign(data)').optional(),
  data_utf8: z.string().optional(),
  why: z.string().optional(),
});

const u64 = z.union([z.number().int(), z.bigint()]).nullable();
/** An envelope exactly as the vector file holds it (its field order is the wire order). */
const vectorEnvelopeSchema = z.object({
  version: z.number().int(),
  sender: z.string(),
  target: z.string(),
  session: z.string(),
  schema_digest: z.string(),
  protocol_digest: z.string().nullable(),
  payload: z.string(),
  expires: u64,
  nonce: u64,
  signature: z.string(),
});

export const envelopeVectorsSchema = z.object({
  schema_digests: z.object({
    'Request(request: str)': z.string(),
    'AnalysisItem(role: str, name: str|None, content: str)': z.string(),
    'ChatMessage (AgentChatProtocol)': z.string(),
    schema_json: z.object({ Request: z.string() }),
  }),
  protocol_digests: z.object({ AgentChatProtocol: z.string() }),
  tampered: z.array(z.object({ envelope: vectorEnvelopeSchema, valid: z.literal(false), why: z.string() })).min(1),
  envelopes: z
    .array(z.object({ payload_json: z.string(), digest_hex: hex.length(64), envelope: vectorEnvelopeSchema, valid: z.literal(true) }))
    .min(1),
});

export type IdentityVector = z.infer<typeof identityVectorSchema>;
export type SignatureVector = z.infer<typeof signatureVectorSchema>;
export type VectorEnvelope = z.infer<typeof vectorEnvelopeSchema>;

export const identityVectors = (): IdentityVector[] =>
  z
    .array(identityVectorSchema)
    .min(1)
    .parse(JSON.parse(readVectorText('identity.json')));
export const signatureVectors = (): SignatureVector[] =>
  z
    .array(signatureVectorSchema)
    .min(1)
    .parse(JSON.parse(readVectorText('signatures.json')));
/** Checked against the schema, but returned as read: key order (the wire order) and u64 values untouched. */
export function envelopeVectors(): z.infer<typeof envelopeVectorsSchema> {
  const raw = parseJsonExact(readVectorText('envelope.json'));
  envelopeVectorsSchema.parse(raw);
  return raw as z.infer<typeof envelopeVectorsSchema>;
}
