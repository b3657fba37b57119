import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { model } from '../../lib/agent/model.ts';
import type { AgentLog, HostedAgent } from '../../schemas/hosting.ts';
import { createDevKey } from '../../scripts/dev/bootstrap-key.ts';
import { readDevVars } from '../../scripts/stack/dev-vars.ts';
import { createTempStack, type TempStack } from './helpers/temp-stack.ts';

const PEER = resolve(import.meta.dirname, '../interop/ping_peer.py');

/** Agentverse's style, unchanged: a Ping → Pong agent counting in ctx.storage and logging with ctx.logger. */
const AGENT = `from uagents import Agent, Context, Model


class Ping(Model):
    text: str


class Pong(Model):
    text: str
    count: int


agent = Agent(name="ponger", seed="a seed is ignored when hosted")


@agent.on_event("startup")
async def introduce(ctx: Context):
    ctx.logger.info(f"hello, my name is {agent.name} and my address is {agent.address}")


@agent.on_message(model=Ping)
async def handle_ping(ctx: Context, sender: str, msg: Ping):
    count = ctx.storage.get("pings") or 0
    count += 1
    ctx.storage.set("pings", count)
    ctx.logger.info(f"ping number {count} from {sender}: {msg.text}")
    await ctx.send(sender, Pong(text=f"pong to {msg.text}", count=count))


if __name__ == "__main__":
    agent.run()
`;

/** Debian's pydantic 1.x and ecdsa, as the chat interop test needs them (scripts/test.sh installs them). */
function pythonWithPeerModules(): string | null {
  const check = 'import ecdsa, pydantic, sys; sys.exit(0 if pydantic.VERSION.startswith("1.") or hasattr(pydantic, "v1") else 1)';
  const candidates = [process.env.PYTHON, 'python3', '/usr/bin/python3'].filter((candidate): candidate is string => !!candidate);
  return candidates.find((python) => spawnSync(python, ['-c', check], { stdio: 'ignore' }).status === 0) ?? null;
}

const python = pythonWithPeerModules();
const Ping = model('Ping', z.object({ text: z.string() }));
const Pong = model('Pong', z.object({ text: z.string(), count: z.int() }));

describe.skipIf(!python)('a hosted Python agent answers a uagents-core-style Python agent', () => {
  let temp: TempStack;

  beforeAll(async () => {
    temp = await createTempStack({ client: false });
    for (const name of ['registry', 'hosting'] as const) await temp.stack.start(name);
  });
  afterAll(async () => {
    await temp?.dispose();
  });

  it('deployed through the hosting API and started, it pongs twice with the stored count, digests and logs to match', async () => {
    const registry = temp.stack.urls.registry;
    const adminToken = readDevVars(join(temp.dir, 'secrets', 'registry.dev.vars')).ADMIN_TOKEN!;
    const { key } = await createDevKey({ registryUrl: registry, adminToken, name: 'python hosting', permissions: ['hosting'] });
    const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const response = await fetch(`${registry}/v1/hosting${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      expect(response.status, text).toBe(200);
      return JSON.parse(text) as T;
    };
    const agent = await call<HostedAgent>('POST', '/agents', { name: 'python ponger' });
    await call('PUT', `/agents/${agent.address}/code`, { code: JSON.stringify([{ name: 'agent.py', value: AGENT, language: 'python' }]) });
    expect(await call<HostedAgent>('POST', `/agents/${agent.address}/start`)).toMatchObject({ running: true, compiled: true });

    const run = spawnSync(
      python!,
      [PEER, '--seed', `python ping peer ${crypto.randomUUID()}`, '--submit', `${registry}/v1/hosting/submit`, '--target', agent.address],
      { encoding: 'utf8', timeout: 120_000, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } },
    );
    const result = JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
    expect(result, run.stderr).toMatchObject({ event: 'done' });
    // The second answer carries the count the first one stored; Python's digests are uagents-core's and ours.
    expect(result.pongs).toEqual([
      { text: 'pong to ping 1', count: 1 },
      { text: 'pong to ping 2', count: 2 },
    ]);
    expect(result.digests).toEqual({ Ping: Ping.digest, Pong: Pong.digest });
    const storage = await call<{ key: string; value: string }>('GET', `/agents/${agent.address}/storage/pings`);
    expect(storage.value).toBe('2');
    const logs = (await call<AgentLog[]>('GET', `/agents/${agent.address}/logs/latest`)).map((line) => line.log_entry);
    expect(logs).toContain(`hello, my name is ponger and my address is ${agent.address}`);
    expect(logs).toContain(`ping number 1 from ${result.address}: ping 1`);
    expect(logs).toContain(`ping number 2 from ${result.address}: ping 2`);
  }, 180_000);
});
