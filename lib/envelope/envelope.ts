import { envelopeSchema, type Envelope } from '../../schemas/envelope.ts';
import type { Identity } from '../identity/index.ts';
import { encodePayload } from './base64.ts';
import { envelopeDigest } from './digest.ts';
import { parseJsonExact, stringifyJsonExact } from './json.ts';
import { pythonJsonDumps } from './python-json.ts';

const ENVELOPE_VERSION = 1;

export interface EnvelopeInput {
  sender: Identity;
  target: string;
  /** Conversation id; replies carry the same session. */
  session?: string;
  schemaDigest: string;
  protocolDigest?: string | null;
  /** The message object; serialised as compact JSON (as Python writes it) and base64-encoded. */
  payload: unknown;
  /** Unix seconds after which receivers refuse the envelope. */
  expires?: bigint | number | null;
  nonce?: bigint | number | null;
}

/** Builds and signs an envelope. */
export function buildEnvelope(input: EnvelopeInput): Envelope {
  const unsigned = {
    version: ENVELOPE_VERSION,
    sender: input.sender.address,
    target: input.target,
    // Lower case, as receivers read it (Python signs str(UUID)).
    session: (input.session ?? crypto.randomUUID()).toLowerCase(),
    schema_digest: input.schemaDigest,
    protocol_digest: input.protocolDigest ?? null,
    payload: encodePayload(pythonJsonDumps(input.payload)),
    expires: input.expires == null ? null : BigInt(input.expires),
    nonce: input.nonce == null ? null : BigInt(input.nonce),
  };
  return { ...unsigned, signature: input.sender.signDigest(envelopeDigest(unsigned)) };
}

/** Serialises in the field order of the uAgents model, with u64 fields as exact JSON numbers. */
export function serializeEnvelope(envelope: Envelope): string {
  return stringifyJsonExact({
    version: envelope.version,
    sender: envelope.sender,
    target: envelope.target,
    session: envelope.session,
    schema_digest: envelope.schema_digest,
    protocol_digest: envelope.protocol_digest ?? null,
    payload: envelope.payload ?? null,
    expires: envelope.expires ?? null,
    nonce: envelope.nonce ?? null,
    signature: envelope.signature ?? null,
  });
}

export type ParseResult = { ok: true; envelope: Envelope } | { ok: false; reason: 'malformed_envelope'; message: string };

const malformed = (message: string): ParseResult => ({ ok: false, reason: 'malformed_envelope', message });

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/** Parses envelope JSON text, keeping u64 fields exact. Never throws; a failure names the field and why. */
export function parseEnvelope(text: string): ParseResult {
  let raw: unknown;
  try {
    raw = parseJsonExact(text);
  } catch (error) {
    return malformed(`body is not valid JSON: ${(error as Error).message}`);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return malformed(`envelope must be a JSON object, got ${describeValue(raw)}`);
  }
  const result = envelopeSchema.safeParse(raw, { reportInput: true });
  if (result.success) return { ok: true, envelope: result.data };
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.');
  if (issue.code === 'invalid_type' && issue.input === undefined) return malformed(`envelope field ${field} is missing`);
  return malformed(`envelope field ${field}: ${issue.message}`);
}
