import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Identity } from '../../lib/identity/index.ts';
import type { TempStack } from './helpers/temp-stack.ts';
import { runUagentsScript, spawnUagentsAgent, uagentsPython } from './helpers/uagents-python.ts';
import { startUagentsStack } from './helpers/uagents-stack.ts';

/**
 * `Agent(proxy=True)` with uAgents' own code: the agent serves envelopes with uAgents' ASGI server and connects as
 * the inspector's Connect does for a proxy agent (its URL as `url`, the registry's `/v2/agents/proxy/submit` as its
 * endpoint). A sender using uagents_core's send_message_to_agent resolves the proxy endpoint through the almanac and
 * posts there; the registry verifies the envelope and relays it to the agent's URL, whose server dispatches it.
 */

/** A port nothing else in this network namespace uses (the stack's are 5001-5174 and 8787-8789). */
const AGENT_PORT = 8911;

const readySchema = z.object({
  event: z.literal('ready'),
  address: z.string(),
  url: z.string(),
  proxy_endpoint: z.string(),
  connected: z.object({ success: z.boolean(), detail: z.string().nullable() }),
  almanac: z.object({ status: z.number(), body: z.record(z.string(), z.unknown()) }),
});
const messageSchema = z.object({ event: z.literal('message'), sender: z.string(), message: z.object({ text: z.string() }) });
const statusesSchema = z.object({ statuses: z.array(z.object({ status: z.string(), endpoint: z.string() })) });

describe.skipIf(!uagentsPython)('a uAgents agent behind the registry’s proxy (proxy=True), with uAgents’ own code', () => {
  let temp: TempStack;
  let base: string;
  let key: string;

  beforeAll(async () => {
    ({ temp, base, key } = await startUagentsStack('uagents proxy', ['read', 'write']));
  }, 240_000);
  afterAll(async () => {
    await temp?.dispose();
  });

  it('connects as a proxy agent; a sender’s envelope, resolved to the proxy, is relayed to its server and dispatched', async () => {
    const seed = `uagents proxy agent ${crypto.randomUUID()}`;
    const agent = spawnUagentsAgent('proxy_agent.py', ['--base', base, '--key', key, '--seed', seed, '--port', String(AGENT_PORT)]);
    try {
      const ready = readySchema.parse(await agent.next(0));
      expect(ready.address).toBe(Identity.fromSeed(seed, 0).address);
      expect(ready.connected, agent.output()).toEqual({ success: true, detail: null });
      expect(ready.proxy_endpoint).toBe(`${base}/v2/agents/proxy/submit`);
      expect(ready.almanac.status).toBe(200);
      expect(ready.almanac.body).toMatchObject({ type: 'proxy', endpoints: [{ url: ready.proxy_endpoint, weight: 1 }] });

      const senderSeed = `${seed} sender`;
      const sent = runUagentsScript('send.py', [
        '--base',
        base,
        '--seed',
        senderSeed,
        '--to',
        ready.address,
        '--text',
        'through the proxy',
      ]);
      expect(sent.status, sent.stderr).toBe(0);
      const { statuses } = statusesSchema.parse(JSON.parse(sent.stdout.split('\n').findLast((line) => line.startsWith('{')) ?? 'null'));
      expect(statuses).toEqual([expect.objectContaining({ status: 'sent', endpoint: ready.proxy_endpoint })]);

      // uAgents' ASGI server took the relayed envelope, verified as it came, and dispatched it.
      const message = messageSchema.parse(await agent.next(1));
      expect(message).toMatchObject({ sender: Identity.fromSeed(senderSeed, 0).address, message: { text: 'through the proxy' } });

      // The Agentverse CLI reads the record as a proxy agent's.
      const check = runUagentsScript('cli.py', ['--av', base, 'agent', ready.address]);
      expect(check.status, check.stderr).toBe(0);
      expect(check.stdout).toContain('Agent type: proxy');
      expect(check.stdout).toContain(`Available at ${ready.proxy_endpoint}`);
      expect(agent.output()).not.toMatch(/Traceback/);
    } finally {
      agent.child.kill();
    }
  }, 180_000);
});
