import { describe, expect, it } from 'vitest';
import { accountKey, call, codeOf, createAgent, json, logLine, start, storageValue } from './helpers.ts';
import { model } from '../../lib/agent/model.ts';
import { z } from 'zod';
import { peerContext } from './peer.ts';

const Ping = model('Ping', z.object({ text: z.string() }));
const Pong = model('Pong', z.object({ text: z.string(), count: z.int() }));

const PING_PONG = `from uagents import Agent, Context, Model


class Ping(Model):
    text: str


class Pong(Model):
    text: str
    count: int


agent = Agent(name="pinger", seed="ignored here")


@agent.on_event("startup")
async def hello(ctx: Context):
    ctx.logger.info(f"{agent.name} is up at {agent.address}")


@agent.on_message(model=Ping)
async def answer(ctx: Context, sender: str, msg: Ping):
    count = (ctx.storage.get("count") or 0) + 1
    ctx.storage.set("count", count)
    ctx.logger.info(f"ping {count} from {sender}: {msg.text}")
    await ctx.send(sender, Pong(text=msg.text, count=count))


if __name__ == "__main__":
    agent.run()
`;

describe('Python agents', () => {
  it('answers a Ping with a Pong, counting in storage and logging', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'python pinger');
    await json(call(key, 'PUT', `/v1/hosting/agents/${agent.address}/code`, { code: codeOf({ 'agent.py': PING_PONG }, 'python') }));
    const started = await start(key, agent.address);
    expect(started.running).toBe(true);
    await logLine(key, agent.address, `pinger is up at ${agent.address}`, 30_000);
    const ctx = peerContext();
    const [reply, status] = await ctx.sendAndReceive(agent.address, Ping({ text: 'one' }), { response: Pong, timeout: 30_000 });
    expect(status.status).toBe('delivered');
    expect(reply?.payload).toEqual({ text: 'one', count: 1 });
    const [second] = await ctx.sendAndReceive(agent.address, Ping({ text: 'two' }), { response: Pong, timeout: 30_000 });
    expect(second?.payload).toEqual({ text: 'two', count: 2 });
    expect(await storageValue(key, agent.address, 'count')).toBe('2');
    await logLine(key, agent.address, `ping 2 from ${ctx.address}: two`);
  });
});
