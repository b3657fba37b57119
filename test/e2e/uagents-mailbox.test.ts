import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CHAT_PROTOCOL_DIGEST } from '../../lib/agent/chat-protocol.ts';
import { Identity } from '../../lib/identity/index.ts';
import type { TempStack } from './helpers/temp-stack.ts';
import { runUagentsScript, spawnUagentsAgent, uagentsPython } from './helpers/uagents-python.ts';
import { startUagentsStack } from './helpers/uagents-stack.ts';

/**
 * uAgents' own code against the running registry (test/interop/mailbox: the vendored uAgents sources run on
 * Debian's python3 with small pydantic shims): an agent with no URL connects by mailbox as `Agent(mailbox=True)`
 * does, the Agentverse CLI reads and resolves it, a sender reaches it with send_message_to_agent through the
 * almanac, and its MailboxClient polls, verifies, dispatches and deletes until the inbox is empty.
 */

const readySchema = z.object({
  event: z.literal('ready'),
  address: z.string(),
  mailbox_endpoint: z.string(),
  connected: z.object({ success: z.boolean(), detail: z.string().nullable() }),
  almanac: z.object({ status: z.number(), body: z.record(z.string(), z.unknown()) }),
  batch: z.object({ status: z.number(), body: z.record(z.string(), z.unknown()) }),
  status: z.object({ status: z.number(), body: z.record(z.string(), z.unknown()) }),
});
const messageSchema = z.object({ event: z.literal('message'), sender: z.string(), message: z.object({ text: z.string() }) });
const doneSchema = z.object({ event: z.literal('done'), inbox_status: z.number(), inbox_after: z.array(z.unknown()) });

describe.skipIf(!uagentsPython)('a uAgents agent connects by mailbox with uAgents’ own code', () => {
  let temp: TempStack;
  let base: string;
  let key: string;

  beforeAll(async () => {
    ({ temp, base, key } = await startUagentsStack('uagents mailbox', ['read', 'write']));
  });
  afterAll(async () => {
    await temp?.dispose();
  });

  it('connects, is read and resolved by the Agentverse CLI, receives two messages through its inbox and leaves it empty', async () => {
    const seed = `uagents mailbox agent ${crypto.randomUUID()}`;
    const handle = `mailbox${crypto.randomUUID().slice(0, 8)}`;
    const agent = spawnUagentsAgent('agent.py', ['--base', base, '--key', key, '--seed', seed, '--handle', handle, '--expect', '2']);
    const next = agent.next;

    try {
      const ready = readySchema.parse(await next(0));
      expect(ready.address).toBe(Identity.fromSeed(seed, 0).address);
      // register_in_agentverse accepts only 200 at each step, and reads `detail` from any refusal.
      expect(ready.connected, agent.output()).toEqual({ success: true, detail: null });
      expect(ready.mailbox_endpoint).toBe(`${base}/v2/agents/mailbox/submit`);
      expect(ready.almanac.status).toBe(200);
      expect(ready.almanac.body).toMatchObject({
        type: 'mailbox',
        status: 'active',
        endpoints: [{ url: ready.mailbox_endpoint, weight: 1 }],
      });
      expect(ready.batch).toMatchObject({ status: 200, body: { accepted: 1, refused: 0 } });
      expect(ready.status).toMatchObject({ status: 200, body: { is_active: true, status: 'active' } });

      // The Agentverse CLI reads the almanac record without an error, and resolves the address and the handle.
      const check = runUagentsScript('cli.py', ['--av', base, 'agent', ready.address, '--all']);
      expect(check.status, check.stderr).toBe(0);
      expect(check.stdout).not.toMatch(/Failed to parse almanac registration|Agent not registered|Could not resolve/);
      expect(check.stdout).toContain(`Available at ${ready.mailbox_endpoint}`);
      expect(check.stdout).toContain('Agent type: mailbox');
      expect(check.stdout).toContain('Registration valid');
      expect(check.stdout).toContain('Status is active');
      expect(check.stdout).toContain('Chat protocol supported');
      expect(check.stdout).toContain(`${ready.mailbox_endpoint} — reachable`);
      // Search needs a key (the spec); the CLI searches without one, so that one record is missing, said as such.
      expect(check.stdout).toMatch(/Failed to fetch search record \(401/);
      for (const identifier of [ready.address, handle, `@${handle}`]) {
        const resolved = runUagentsScript('cli.py', ['--av', base, 'resolve', identifier]);
        expect(resolved.status, resolved.stderr).toBe(0);
        expect(resolved.stdout).toContain(`Address: ${ready.address}`);
        expect(resolved.stdout).toContain('Status: active');
        expect(resolved.stdout).toContain('Type: mailbox');
        expect(resolved.stdout).toContain(`Endpoints: ${ready.mailbox_endpoint}`);
      }
      const unknown = runUagentsScript('cli.py', ['--av', base, 'resolve', Identity.fromSeed(`${seed} nobody`, 0).address]);
      expect(unknown.stdout).toContain('Identifier is available (not assigned)');

      // Two senders, each with uagents_core's send_message_to_agent: resolved through the almanac, posted to the mailbox.
      for (const [senderSeed, text] of [
        [`${seed} sender one`, 'first'],
        [`${seed} sender two`, 'second'],
      ] as const) {
        const sent = runUagentsScript('send.py', ['--base', base, '--seed', senderSeed, '--to', ready.address, '--text', text]);
        expect(sent.status, sent.stderr).toBe(0);
        const { statuses } = z
          .object({ statuses: z.array(z.object({ status: z.string(), endpoint: z.string() })) })
          .parse(JSON.parse(sent.stdout.split('\n').findLast((line) => line.startsWith('{')) ?? 'null'));
        expect(statuses).toEqual([expect.objectContaining({ status: 'sent', endpoint: ready.mailbox_endpoint })]);
      }

      // MailboxClient polled, verified each signature, dispatched both messages, oldest first, and deleted them.
      const first = messageSchema.parse(await next(1));
      const second = messageSchema.parse(await next(2));
      expect([first.message.text, second.message.text]).toEqual(['first', 'second']);
      expect(first.sender).toBe(Identity.fromSeed(`${seed} sender one`, 0).address);
      const done = doneSchema.parse(await next(3));
      expect(done).toMatchObject({ inbox_status: 200, inbox_after: [] });
      expect(agent.output()).not.toMatch(/Traceback|failed verification|Failed to delete/);
    } finally {
      agent.child.kill();
    }
    expect(CHAT_PROTOCOL_DIGEST).toBe('proto:30a801ed3a83f9a0ff0a9f1e6fe958cb91da1fc2218b153df7b6cbf87bd33d62');
  }, 180_000);
});
