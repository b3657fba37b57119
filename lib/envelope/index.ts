export { decodePayload, encodePayload } from './base64.ts';
export { envelopeDigest } from './digest.ts';
export { buildEnvelope, parseEnvelope, serializeEnvelope, type EnvelopeInput } from './envelope.ts';
export { parseJsonExact, stringifyJsonExact } from './json.ts';
export { MemoryReplayGuard, REPLAY_WINDOW_SECONDS, type ReplayGuard } from './replay.ts';
export { protocolDigest, type ProtocolInteraction, type ProtocolModel } from './protocol-digest.ts';
export { modelSchemaJson, schemaDigest } from './schema-digest.ts';
export { verifyEnvelope, type RejectReason, type Verification, type VerifyOptions } from './verify.ts';
// The ReplayLedger Durable Object lives in ./replay-ledger.ts: it imports `cloudflare:workers`, which Node tools cannot load.
