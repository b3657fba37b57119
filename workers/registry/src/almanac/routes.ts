import { Hono } from 'hono';
import { z } from 'zod';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { addressOfIdentifier, verifyVerifiableModel } from '../../../../lib/registry-client/signed-model.ts';
import {
  type AlmanacBatchResponse,
  type AlmanacBatchResult,
  addressParamSchema,
  agentStatusUpdateSchema,
  almanacBatchSchema,
  type StatusUpdateResponse,
} from '../../../../schemas/registry.ts';
import { toAlmanacRecord } from '../agents/record.ts';
import { findAgent, findAlmanacRow, saveActivity } from '../agents/store.ts';
import type { RegistryApp } from '../app.ts';
import { speaksDetail, validateDetail } from '../http/detail.ts';
import { acceptAttestation, staleness } from './attestation.ts';

/**
 * `/v1/almanac`: where to reach an agent. Lookup is public (the SDKs resolve without a key); changes are
 * signed by the agent's own key instead of an API key: the signed status update, and uAgents' signed
 * registration attestation, one at a time or in a batch.
 */
export function almanacRoutes() {
  const app = new Hono<RegistryApp>();
  app.use('*', speaksDetail);

  app.get('/agents/:address', validateDetail('param', addressParamSchema), async (c) => {
    const { address } = c.req.valid('param');
    const row = await findAlmanacRow(c.var.shards().ownerReader(address), address);
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
      const owner = c.var.shards().owner(address);
      const row = await findAgent(owner, address);
      if (!row) throw new ApiError({ status: 404, message: 'agent not found' });
      const stale = staleness(update.timestamp, row.status_timestamp);
      if (stale) throw new ApiError({ status: 401, message: stale });
      const status = await saveActivity(owner, row, update.is_active, update.timestamp, new Date().toISOString());
      const body: StatusUpdateResponse = { address, is_active: update.is_active, status };
      return c.json(body);
    },
  );

  // The body is checked by acceptAttestation (a batch checks each of its attestations the same way).
  app.post('/agents', validateDetail('json', z.looseObject({})), async (c) => {
    const outcome = await acceptAttestation(c.var.shards(), c.req.valid('json'));
    if (!outcome.ok) throw new ApiError({ status: outcome.status, message: outcome.detail });
    return c.json(outcome.record);
  });

  // uAgents' BatchAlmanacApiRegistrationPolicy: one agent's bad attestation refuses that agent, not the batch.
  app.post('/agents/batch', validateDetail('json', almanacBatchSchema), async (c) => {
    const results: AlmanacBatchResult[] = [];
    const shards = c.var.shards();
    for (const [index, attestation] of c.req.valid('json').attestations.entries()) {
      const outcome = await acceptAttestation(shards, attestation);
      results.push(
        outcome.ok
          ? { index, address: outcome.record.address, accepted: true, status: 200, detail: 'registered' }
          : { index, address: outcome.address, accepted: false, status: outcome.status, detail: outcome.detail },
      );
    }
    const accepted = results.filter((result) => result.accepted).length;
    const body: AlmanacBatchResponse = { accepted, refused: results.length - accepted, results };
    // Nothing accepted is a failure uAgents must log (it reads only the status), with each reason in the body.
    if (!accepted)
      return c.json({ detail: `no attestation accepted: ${results[0]!.detail}`, ...body }, results[0]!.status === 401 ? 401 : 406);
    return c.json(body);
  });

  return app;
}
