import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { Identity } from '../../../../lib/identity/index.ts';
import {
  type AgentCode,
  hostedAgentListQuerySchema,
  newHostedAgentSchema,
  updateCodeSchema,
  updateHostedAgentSchema,
} from '../../../../schemas/hosting.ts';
import type { HostingApp, HostingBindings } from '../app.ts';
import { compile } from '../code/compile.ts';
import { parseCode } from '../code/files.ts';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { ValidationRefusal, validateHosting } from '../http/detail.ts';
import { quotasOf, tooMany } from '../quotas.ts';
import { hostedAgentStub } from '../runtime/hosted-agent.ts';
import { deleteAgent, startAgent, stopAgent } from './lifecycle.ts';
import { listOrder } from './list-order.ts';
import { type AgentRow, toAgent, toSummary } from './records.ts';
import { findOwnAgent, insertAgent, listAgents, newAgentRow, setCode, setState, updateAgent } from './store.ts';
import { newSeed, seal } from './vault.ts';

const encoder = new TextEncoder();

const agentNotFound = () => new ApiError({ status: 404, message: 'agent not found' });
const codeTooLarge = (max: number) =>
  new ApiError({ status: 413, message: `code is larger than ${max} bytes, the most this platform takes (HOSTED_CODE_MAX_BYTES)` });

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** `/v1/hosting/agents`: create, list, read, update, delete, duplicate, code, start/stop/restart, logs. */
export function agentRoutes() {
  const app = new Hono<HostingApp>();

  /** A fresh identity for a new agent: the seed is sealed at once and never leaves the platform. */
  const createAgent = async (env: HostingBindings, accountId: string, input: Parameters<typeof newAgentRow>[3]): Promise<AgentRow> => {
    const seed = newSeed();
    const row = newAgentRow(accountId, Identity.fromSeed(seed, 0).address, await seal(env, seed), input, new Date());
    const max = quotasOf(env).agentsPerAccount;
    if (!(await insertAgent(env.DB, row, max)))
      throw tooMany(`this account has ${max} hosted agents, the most it may have: delete one first (HOSTED_AGENTS_PER_ACCOUNT)`);
    return row;
  };

  app.get('/', validateHosting('query', hostedAgentListQuerySchema), async (c) => {
    const query = c.req.valid('query');
    const offset = Math.max(0, Number.parseInt(query.cursor ?? '0', 10) || 0);
    const limit = query.limit ?? 50;
    const rows = await listAgents(c.env.DB, c.get('accountId'), {
      offset,
      limit,
      name: query.name,
      ...listOrder(query.sort_by, query.direction),
    });
    const more = rows.length > limit;
    return c.json({ items: rows.slice(0, limit).map(toSummary), next_cursor: more ? String(offset + limit) : null });
  });

  app.post('/', validateHosting('json', newHostedAgentSchema), async (c) =>
    c.json(toAgent(await createAgent(c.env, c.get('accountId'), c.req.valid('json')))),
  );

  app.get('/:address', async (c) => {
    const row = await findOwnAgent(c.env.DB, c.get('accountId'), c.req.param('address'));
    if (!row) throw agentNotFound();
    return c.json(toAgent(row));
  });

  app.put('/:address', validateHosting('json', updateHostedAgentSchema), async (c) => {
    const row = await findOwnAgent(c.env.DB, c.get('accountId'), c.req.param('address'));
    if (!row) throw agentNotFound();
    await updateAgent(c.env.DB, row.address, c.req.valid('json'));
    return c.json({});
  });

  app.delete('/:address', async (c) => {
    const row = await findOwnAgent(c.env.DB, c.get('accountId'), c.req.param('address'));
    if (!row) throw agentNotFound();
    await deleteAgent(c.env, row);
    return c.json({});
  });

  /** A new agent (its own identity) with the original's code; storage, secrets and logs are not copied. */
  app.post('/:address/duplicate', validateHosting('json', newHostedAgentSchema), async (c) => {
    const original = await findOwnAgent(c.env.DB, c.get('accountId'), c.req.param('address'));
    if (!original) throw agentNotFound();
    const copy = await createAgent(c.env, c.get('accountId'), c.req.valid('json'));
    if (original.code !== null) await setCode(c.env.DB, copy.address, original.code, original.code_digest!, new Date());
    return c.json(toAgent((await findOwnAgent(c.env.DB, c.get('accountId'), copy.address))!));
  });

  app.get('/:address/code', async (c) => {
    const row = await findOwnAgent(c.env.DB, c.get('accountId'), c.req.param('address'));
    if (!row) throw agentNotFound();
    const body: AgentCode = { digest: row.code_digest, code: row.code, timestamp: row.code_update_timestamp };
    return c.json(body);
  });

  app.put(
    '/:address/code',
    // The code string travels JSON-escaped: the body may be larger than the code it holds.
    (c, next) =>
      bodyLimit({
        maxSize: quotasOf(c.env).codeBytes * 2 + 1024,
        onError: () => {
          throw codeTooLarge(quotasOf(c.env).codeBytes);
        },
      })(c, next),
    validateHosting('json', updateCodeSchema),
    async (c) => {
      const row = await findOwnAgent(c.env.DB, c.get('accountId'), c.req.param('address'));
      if (!row) throw agentNotFound();
      const { code } = c.req.valid('json');
      const maxCodeBytes = quotasOf(c.env).codeBytes;
      if (encoder.encode(code).length > maxCodeBytes) throw codeTooLarge(maxCodeBytes);
      const parsed = parseCode(code);
      if (!parsed.ok) throw new ValidationRefusal(parsed.error.detail);
      const digest = await sha256Hex(code);
      await setCode(c.env.DB, row.address, code, digest, new Date());
      const compiled = compile(parsed.files);
      const updated = (await findOwnAgent(c.env.DB, c.get('accountId'), row.address))!;
      if (!compiled.ok) {
        // Stored as sent (the editor keeps it); the agent cannot run it.
        await hostedAgentStub(c.env, row.address).log('erro', 'system', `the code does not compile: ${compiled.message}`);
        if (row.running === 1) await stopAgent(c.env, updated);
        await setState(c.env.DB, row.address, { compiled: false });
      } else if (row.running === 1) {
        // New code takes effect at once: the loader's cache id holds the digest.
        await startAgent(c.env, c.executionCtx, updated);
      }
      return c.json({ digest });
    },
  );

  app.post('/:address/start', async (c) => {
    const row = await findOwnAgent(c.env.DB, c.get('accountId'), c.req.param('address'));
    if (!row) throw agentNotFound();
    if (row.code === null)
      throw new ApiError({ status: 409, message: 'the agent has no code yet: PUT /v1/hosting/agents/{address}/code first' });
    return c.json(toAgent(await startAgent(c.env, c.executionCtx, row)));
  });

  app.post('/:address/stop', async (c) => {
    const row = await findOwnAgent(c.env.DB, c.get('accountId'), c.req.param('address'));
    if (!row) throw agentNotFound();
    return c.json(toAgent(await stopAgent(c.env, row)));
  });

  /** An extension: Agentverse has none (its scripts stop, then start). */
  app.post('/:address/restart', async (c) => {
    const row = await findOwnAgent(c.env.DB, c.get('accountId'), c.req.param('address'));
    if (!row) throw agentNotFound();
    if (row.code === null)
      throw new ApiError({ status: 409, message: 'the agent has no code yet: PUT /v1/hosting/agents/{address}/code first' });
    const stopped = await stopAgent(c.env, row);
    return c.json(toAgent(await startAgent(c.env, c.executionCtx, stopped)));
  });

  app.get('/:address/logs/latest', async (c) => {
    const row = await findOwnAgent(c.env.DB, c.get('accountId'), c.req.param('address'));
    if (!row) throw agentNotFound();
    return c.json(await hostedAgentStub(c.env, row.address).latestLogs());
  });

  app.delete('/:address/logs', async (c) => {
    const row = await findOwnAgent(c.env.DB, c.get('accountId'), c.req.param('address'));
    if (!row) throw agentNotFound();
    await hostedAgentStub(c.env, row.address).clearLogs();
    return c.json({});
  });

  return app;
}
