import { describeZodError } from '../../../../lib/http/errors.ts';
import { addressOfIdentifier, verifyVerifiableModel } from '../../../../lib/registry-client/signed-model.ts';
import { type AlmanacRecord, almanacAttestationSchema } from '../../../../schemas/registry.ts';
import { isValidAddress } from '../../../../schemas/address.ts';
import { toAlmanacRecord } from '../agents/record.ts';
import type { ShardSet } from '../shards/shard-set.ts';
import { emptyState, findAgent, saveAgent, stateOf } from '../agents/store.ts';

/** How far a signed timestamp may be from our clock: uAgents sign with `int(time.time())` just before sending. */
const SIGNED_TIMESTAMP_SKEW_SECONDS = 600;

/** Why a signed message cannot be accepted, or null when its timestamp is current and not older than the last one. */
export function staleness(timestamp: number, lastAccepted: number | null): string | null {
  const now = Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > SIGNED_TIMESTAMP_SKEW_SECONDS)
    return `timestamp ${timestamp} is more than ${SIGNED_TIMESTAMP_SKEW_SECONDS} s from the registry's clock (${now})`;
  if (lastAccepted !== null && timestamp < lastAccepted) return 'a newer signed message was already accepted (replay?)';
  return null;
}

export type AttestationOutcome =
  | { ok: true; record: AlmanacRecord }
  | { ok: false; status: 401 | 406; address: string | null; detail: string };

/**
 * One uAgents `AgentRegistrationAttestation`, checked on its own (a batch holds many): its shape, the agent's
 * signature and its timestamp. Accepted, it sets the agent's endpoints and protocols and renews its registration.
 */
export async function acceptAttestation(shards: ShardSet, body: unknown): Promise<AttestationOutcome> {
  const parsed = almanacAttestationSchema.safeParse(body);
  if (!parsed.success)
    return { ok: false, status: 406, address: null, detail: `malformed attestation: ${describeZodError(parsed.error).message}` };
  const attestation = parsed.data;
  const identifier = (attestation.agent_identifier ?? attestation.agent_address)!;
  const address = addressOfIdentifier(identifier);
  if (!isValidAddress(address))
    return { ok: false, status: 406, address: null, detail: `agent_identifier ${identifier} names no agent address` };
  const signed = {
    agent_identifier: identifier,
    protocols: attestation.protocols,
    endpoints: attestation.endpoints,
    metadata: attestation.metadata ?? null,
    timestamp: attestation.timestamp,
  };
  if (!verifyVerifiableModel(address, signed, attestation.signature))
    return { ok: false, status: 401, address, detail: `signature is not ${address}'s signature of this attestation` };
  const db = shards.owner(address);
  const previous = await findAgent(db, address);
  const stale = staleness(attestation.timestamp, previous?.attestation_timestamp ?? null);
  if (stale) return { ok: false, status: 401, address, detail: stale };
  const state = previous ? stateOf(previous) : emptyState();
  state.endpoints = attestation.endpoints;
  state.protocols = attestation.protocols;
  state.metadata = attestation.metadata ?? state.metadata;
  // Nobody's agent is in nobody's listing: unlisted until an account registers it (POST /v2/agents).
  if (!previous?.account_id) state.isPublic = false;
  await saveAgent(db, address, previous?.account_id ?? null, state, previous, new Date().toISOString(), {
    attestationTimestamp: attestation.timestamp,
  });
  const row = await findAgent(db, address);
  return { ok: true, record: toAlmanacRecord(row!) };
}
