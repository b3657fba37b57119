import { z } from 'zod';
import { model } from '../../lib/agent/model.ts';

/** The models the Python agent below speaks, as a TypeScript peer declares them (same schema digests). */
export const Ping = model('Ping', z.object({ text: z.string() }));
export const Pong = model('Pong', z.object({ text: z.string(), count: z.int() }));

/**
 * An Agentverse-style uagents agent, unchanged from how users write one: on a Ping it counts in ctx.storage
 * ("pings"), logs with ctx.logger and answers a Pong ("pong to <text>", then the SUFFIX secret from the environment,
 * if any). The hosting Worker's tests and the stack's e2e test host this one source.
 */
export const PING_PONG_AGENT = `import os

from uagents import Agent, Context, Model


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
    count = (ctx.storage.get("pings") or 0) + 1
    ctx.storage.set("pings", count)
    ctx.logger.info(f"ping number {count} from {sender}: {msg.text}")
    await ctx.send(sender, Pong(text=f"pong to {msg.text}" + os.getenv("SUFFIX", ""), count=count))


if __name__ == "__main__":
    agent.run()
`;
