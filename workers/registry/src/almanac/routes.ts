import { Hono } from 'hono';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { addressOfIdentifier, verifyVerifiableModel } from '../../../../lib/registry-client/signed-model.ts';
import {
  addressParamSchema,
  agentStatusUpdateSchema,
  almanacAttestationSchema,
  type StatusUpdateResponse,
} from '../../../../schemas/registry.ts';
import { toAlmanacRecord } from '../agents/record.ts';
import { emptyState, findAgent, saveActivity, saveAgent, stateOf } from '../agents/store.ts';
import type { RegistryApp } from '../app.ts';
import { speaksDetail, validateDetail } from '../http/detail.ts';

/** How far a signed timestamp may be from our clock: uAgents sign with `int(time.time())` just before sending. */
const SIGNED_TIMESTAMP_SKEW_SECONDS = 600;

/** Why a signed message cannot be accepted, or null when its timestamp is current and not older than the last one. */
function staleness(timestamp: number, lastAccepted: number | null): string | null {
  const now = Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > SIGNED_TIMESTAMP_SKEW_SECONDS)
    return `timestamp ${timestamp} is more than ${SIGNED_TIMESTAMP_SKEW_SECONDS} s from the registry's clock (${now})`;
  if (lastAccepted !== null && timestamp < lastAccepted) return 'a newer signed message was already accepted (replay?)';
  return null;
}

/**
 * `/v1/almanac`: where to reach an agent. Lookup is public (the SDKs resolve without a key); changes are
 * signed by the agent's own key instead of an API key: the signed status update, and the older SDKs'
 * signed registration attestation.
 */
export function almanacRoutes() {
  const app = new Hono<RegistryApp>();
  app.use('*', speaksDetail);

  app.get('/agents/:address', validateDetail('param', addressParamSchema), async (c) => {
    const row = await findAgent(c.env.DB, c.req.valid('param').address);
    if (!row) throw new ApiError({ status: 404, message: 'agent not found' });
    return c.json(toAlmanacRecord(row));
  });

  app.post(
    '/agents/:address/status',
    validateDetail('param', addressParamSchema),
    validateDetail('json', agentStatusUpdateSchema),
    async (c) => {
      const { address } = c.req.valid('param');
      const update = c.req.valid('json');
      const identifier = (update.agent_identifier ?? update.agent_address)!;
      if (addressOfIdentifier(identifier) !== address)
        throw new ApiError({
          status: 406,
          message: `agent_identifier ${identifier} is not ${address}`,
        });
      const signed = { agent_identifier: identifier, is_active: update.is_active, timestamp: update.timestamp };
      if (!verifyVerifiableModel(address, signed, update.signature))
        throw new ApiError({
          status: 401,
          message: `signature is not ${address}'s signature of this status update`,
        });
      const row = await findAgent(c.env.DB, address);
      if (!row) throw new ApiError({ status: 404, message: 'agent not found' });
      const stale = staleness(update.timestamp, row.status_timestamp);
      if (stale) throw new ApiError({ status: 401, message: stale });
      const status = await saveActivity(c.env.DB, row, update.is_active, update.timestamp, new Date().toISOString());
      const body: StatusUpdateResponse = { address, is_active: update.is_active, status };
      return c.json(body);
    },
  );

  app.post('/agents', validateDetail('json', almanacAttestationSchema), async (c) => {
    const attestation = c.req.valid('json');
    const identifier = (attestation.agent_identifier ?? attestation.agent_address)!;
    const address = addressOfIdentifier(identifier);
    const signed = {
      agent_identifier: identifier,
      protocols: attestation.protocols,
      endpoints: attestation.endpoints,
      metadata: attestation.metadata ?? null,
      timestamp: attestation.timestamp,
    };
    if (!verifyVerifiableModel(address, signed, attestation.signature))
      throw new ApiError({
        status: 401,
        message: `signature is not ${address}'s signature of this attestation`,
      });
    const previous = await findAgent(c.env.DB, address);
    const stale = staleness(attestation.timestamp, previous?.attestation_timestamp ?? null);
    if (stale) throw new ApiError({ status: 401, message: stale });
    const state = previous ? stateOf(previous) : emptyState();
    state.endpoints = attestation.endpoints;
    state.protocols = attestation.protocols;
    state.metadata = attestation.metadata ?? state.metadata;
    // Nobody's agent is in nobody's listing: unlisted until an account registers it (POST /v2/agents).
    if (!previous?.account_id) state.isPublic = false;
    await saveAgent(c.env.DB, address, previous?.account_id ?? null, state, previous, new Date().toISOString(), {
      attestationTimestamp: attestation.timestamp,
    });
    const row = await findAgent(c.env.DB, address);
    return c.json(toAlmanacRecord(row!));
  });

  return app;
}
