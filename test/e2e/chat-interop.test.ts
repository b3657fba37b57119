import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CHAT_PROTOCOL_DIGEST, ChatAcknowledgement, ChatMessage } from '../../lib/agent/chat-protocol.ts';
import { Identity } from '../../lib/identity/index.ts';
import { registerAgent } from '../../lib/registry-client/index.ts';
import { createDevKey } from '../../scripts/dev/bootstrap-key.ts';
import { readDevVars } from '../../scripts/stack/dev-vars.ts';
import vectors from '../fixtures/interop/envelope.json';
import { createTempStack, type TempStack } from './helpers/temp-stack.ts';

const PEER = resolve(import.meta.dirname, '../interop/chat_peer.py');

/**
 * A Python with pydantic v1 (the API uagents-core hashes its models with) and ecdsa: Debian's python3-pydantic
 * and python3-ecdsa (scripts/test.sh installs them). The first of PYTHON, python3, /usr/bin/python3 that has both.
 */
function pythonWithPeerModules(): string | null {
  const check = 'import ecdsa, pydantic, sys; sys.exit(0 if pydantic.VERSION.startswith("1.") or hasattr(pydantic, "v1") else 1)';
  const candidates = [process.env.PYTHON, 'python3', '/usr/bin/python3'].filter((candidate): candidate is string => !!candidate);
  return candidates.find((python) => spawnSync(python, ['-c', check], { stdio: 'ignore' }).status === 0) ?? null;
}

const readySchema = z.object({
  event: z.literal('ready'),
  address: z.string(),
  webhook: z.string(),
  digests: z.object({ ChatMessage: z.string(), ChatAcknowledgement: z.string(), AgentChatProtocol: z.string() }),
});
const doneSchema = z.object({
  event: z.literal('done'),
  session: z.string(),
  msg_id: z.string(),
  sent: z.object({ status: z.number(), body: z.unknown() }),
  acknowledgement: z.object({
    acknowledged_msg_id: z.string(),
    timestamp: z.string(),
    metadata: z.record(z.string(), z.string()).nullable(),
  }),
  answer: z.object({ msg_id: z.string(), text: z.string(), content_types: z.array(z.string()) }),
  answer_acknowledged: z.object({ status: z.number(), body: z.unknown() }),
  verified_envelopes: z.number(),
});

/** The peer's stdout, one JSON object a line, read in order. */
function lines(child: ChildProcessWithoutNullStreams): () => Promise<unknown> {
  const pending: unknown[] = [];
  const waiting: ((line: unknown) => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    const value: unknown = JSON.parse(line);
    const next = waiting.shift();
    if (next) next(value);
    else pending.push(value);
  });
  return () => (pending.length ? Promise.resolve(pending.shift()) : new Promise((resolve) => waiting.push(resolve)));
}

const python = pythonWithPeerModules();

describe.skipIf(!python)('a Python uAgents chat peer talks to the specialist (AgentChatProtocol interop)', () => {
  let temp: TempStack;
  let peer: ChildProcessWithoutNullStreams | undefined;
  let stderr = '';

  beforeAll(async () => {
    temp = await createTempStack({ client: false });
    for (const name of ['registry', 'chat', 'edgar', 'specialist'] as const) await temp.stack.start(name);
  });
  afterAll(async () => {
    peer?.kill();
    await temp?.dispose();
  });

  it('asks in a ChatMessage; gets a signed acknowledgement and the analysis in its session, with uagents-core’s digests', async () => {
    const seed = `python chat peer ${crypto.randomUUID()}`;
    peer = spawn(
      python!,
      [
        PEER,
        '--seed',
        seed,
        '--specialist-webhook',
        `${temp.stack.urls.specialist}/webhook`,
        '--specialist-address',
        temp.stack.specialistAddress,
        '--question',
        "What was NVIDIA's revenue in fiscal 2024?",
      ],
      { env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } },
    );
    peer.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const next = lines(peer);

    const ready = readySchema.parse(await next());
    // Python's digests, from its own pydantic v1 models: the published ones, and ours.
    expect(ready.digests).toEqual({
      ChatMessage: vectors.schema_digests['ChatMessage (AgentChatProtocol)'],
      ChatAcknowledgement: ChatAcknowledgement.digest,
      AgentChatProtocol: vectors.protocol_digests.AgentChatProtocol,
    });
    expect(ChatMessage.digest).toBe(ready.digests.ChatMessage);
    expect(CHAT_PROTOCOL_DIGEST).toBe(ready.digests.AgentChatProtocol);
    // Same seed, same address in Python and here; registered under an account, as the specialist requires.
    expect(ready.address).toBe(Identity.fromSeed(seed, 0).address);
    const adminToken = readDevVars(join(temp.dir, 'secrets', 'registry.dev.vars')).ADMIN_TOKEN!;
    const { key } = await createDevKey({
      registryUrl: temp.stack.urls.registry,
      adminToken,
      name: 'python chat peer',
      permissions: ['read', 'write'],
    });
    await registerAgent({
      seed,
      url: ready.webhook,
      token: key,
      title: 'Python chat peer',
      readme: '# Python chat peer\n\nThe interop test’s uAgents-style agent.\n',
      registryUrl: temp.stack.urls.registry,
      protocols: [CHAT_PROTOCOL_DIGEST],
    });

    peer.stdin.write('go\n');
    const result = await next();
    expect(result, stderr).toMatchObject({ event: 'done' });
    const done = doneSchema.parse(result);
    expect(done.sent).toEqual({ status: 200, body: { status: 'analysis_sent' } });
    expect(done.acknowledgement.acknowledged_msg_id).toBe(done.msg_id);
    expect(done.verified_envelopes).toBe(2);
    expect(done.answer.content_types).toEqual(['text']);
    expect(done.answer.text).toContain('Revenue: $60.92B in FY2024');
    expect(done.answer.text).toContain('## Filings Analyst (filings)');
    expect(done.answer_acknowledged.status).toBe(200);
  }, 120_000);
});
