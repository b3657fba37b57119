import { Hono } from 'hono';
import { ApiError } from '../../../../lib/http/api-error.ts';
import {
  addressParamSchema,
  agentUpdateSchema,
  type DeletedAgent,
  handleParamSchema,
  registrationRequestSchema,
} from '../../../../schemas/registry.ts';
import type { RegistryApp } from '../app.ts';
import { speaksDetail, validateDetail } from '../http/detail.ts';
import { requireKeyInBatch } from '../keys/batched-key.ts';
import { requireKey } from '../keys/require-key.ts';
import { keyedRunner } from '../search/keyed-runner.ts';
import { SqlParams } from '../search/sql-params.ts';
import { d1Runner } from '../search/sql-runner.ts';
import { register, update } from './register.ts';
import { toAgentDetail } from './record.ts';
import type { AgentRow } from './row.ts';
import { deleteAgent, findAgent } from './store.ts';
import { handleClaimant, releaseOtherHandles } from './handle-claims.ts';

/**
 * `/v2/agents` (and the older `/v1/agents`): the registration API the Python SDKs call. Lookup takes a
 * read or write key (the SDK checks existence with its registration key); changes need write.
 */
export function agentRoutes() {
  const app = new Hono<RegistryApp>();
  app.use('*', speaksDetail);
  const lookupKey = requireKey(['read', 'write']);
  const writeKey = requireKey('write');

  // `@handle` in a chat: the agent holding the handle, seen as the lookup by address would show it. The claim on
  // home names the address; the agent's row must still carry the handle (a failed write may leave a claim).
  app.get('/handles/:handle', lookupKey, validateDetail('param', handleParamSchema), async (c) => {
    const shards = c.var.shards();
    const { handle } = c.req.valid('param');
    const address = await handleClaimant(shards.homeReader(), handle);
    const row = address ? await findAgent(shards.ownerReader(address), address) : null;
    if (!row || row.handle !== handle || row.account_id === null || (row.is_public !== 1 && row.account_id !== c.get('key').accountId))
      throw new ApiError({ status: 404, message: 'no agent has this handle' });
    return c.json(toAgentDetail(row));
  });

  // An agent known only from an almanac attestation is not registered yet: 404 makes the SDK prove ownership.
  // An unlisted agent (public: false) is its owner's business: other accounts get the same 404 as for no agent.
  // One database: the key is read in the same D1 batch as the agent (one round trip), the agent only for a live
  // key. Sharded, keys live on the home database: the key is settled there first, then the owning shard is read.
  app.get('/:address', requireKeyInBatch(['read', 'write']), validateDetail('param', addressParamSchema), async (c) => {
    const { address } = c.req.valid('param');
    const check = c.get('keyCheck');
    const shards = c.var.shards();
    const home = keyedRunner(d1Runner(shards.home), check);
    let row: AgentRow | null | undefined;
    if (shards.ownerIndex(address) === 0) {
      const params = new SqlParams();
      const sql = `SELECT rowid, * FROM agents WHERE address = ${params.add(address)} AND ${check.gate((value) => params.add(value))}`;
      [row] = await home.all<AgentRow>({ sql, params: params.values });
    } else {
      await home.batch([]);
      row = await findAgent(shards.ownerReader(address), address);
    }
    if (!row || row.account_id === null) throw new ApiError({ status: 404, message: 'agent not found' });
    // keyedRunner settled the key before returning rows: a refused key has thrown.
    const key = check.verdict?.result;
    if (row.is_public !== 1 && (!key?.ok || row.account_id !== key.accountId))
      throw new ApiError({ status: 404, message: 'agent not found' });
    return c.json(toAgentDetail(row));
  });

  app.post('/', writeKey, validateDetail('json', registrationRequestSchema), async (c) => {
    const outcome = await register(c.var.shards(), c.get('key').accountId, c.req.valid('json'));
    if (!outcome.ok) throw new ApiError({ status: outcome.status, message: outcome.detail });
    // 200 for a creation too: uAgents' register_in_agentverse accepts nothing else (docs/decisions/0110); `created` tells them apart.
    return c.json(outcome.body);
  });

  for (const method of ['put', 'patch'] as const) {
    app[method](
      '/:address',
      writeKey,
      validateDetail('param', addressParamSchema),
      validateDetail('json', agentUpdateSchema),
      async (c) => {
        const outcome = await update(c.var.shards(), c.get('key').accountId, c.req.valid('param').address, c.req.valid('json'));
        if (!outcome.ok) throw new ApiError({ status: outcome.status, message: outcome.detail });
        return c.json(outcome.body);
      },
    );
  }

  app.delete('/:address', writeKey, validateDetail('param', addressParamSchema), async (c) => {
    const { address } = c.req.valid('param');
    const owner = c.var.shards().owner(address);
    const row = await findAgent(owner, address);
    if (!row || row.account_id === null) throw new ApiError({ status: 404, message: 'agent not found' });
    if (row.account_id !== c.get('key').accountId)
      throw new ApiError({
        status: 409,
        message: `agent ${address} belongs to another account`,
      });
    await deleteAgent(owner, address);
    // After the row is gone: released first, the handle could be claimed while this agent still shows it.
    await releaseOtherHandles(c.var.shards().homeWriter(), address, null);
    const body: DeletedAgent = { address, deleted: true };
    return c.json(body);
  });

  return app;
}
