/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { model } from '../../lib/agent/model.ts';
import { accountKey, call, codeOf, createAgent, GREETER, json, logLine, putCode, start, storageValue } from './helpers.ts';
import { Identity } from '../../lib/identity/index.ts';
import { envelopeText, peerContext, submit } from './peer.ts';
import { ChatAcknowledgement, chatMessage } from '../../lib/agent/chat-protocol.ts';
import { PING_PONG_AGENT, Ping, Pong } from '../support/python-ping-pong.ts';
import README from '../../README.md?raw';
import PYTHON_AGENTS_DOC from '../../docs/python-agents.md?raw';
import { documentedAgents } from '../support/documented-agents.ts';

describe('Python agents', () => {
  it('answers a Ping with a Pong, counting in storage, logging, reading its secrets from the environment', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'python ponger');
    await json(call(key, 'POST', '/v1/hosting/secrets', { address: agent.address, name: 'SUFFIX', secret: '!' }));
    await json(call(key, 'PUT', `/v1/hosting/agents/${agent.address}/code`, { code: codeOf({ 'agent.py': PING_PONG_AGENT }, 'python') }));
    const started = await start(key, agent.address);
    expect(started.running).toBe(true);
    await logLine(key, agent.address, `hello, my name is ponger and my address is ${agent.address}`, 30_000);
    const ctx = peerContext();
    const [reply, status] = await ctx.sendAndReceive(agent.address, Ping({ text: 'one' }), { response: Pong, timeout: 30_000 });
    expect(status.status).toBe('delivered');
    expect(reply?.payload).toEqual({ text: 'pong to one!', count: 1 });
    const [second] = await ctx.sendAndReceive(agent.address, Ping({ text: 'two' }), { response: Pong, timeout: 30_000 });
    expect(second?.payload).toEqual({ text: 'pong to two!', count: 2 });
    expect(await storageValue(key, agent.address, 'pings')).toBe('2');
    await logLine(key, agent.address, `ping number 2 from ${ctx.address}: two`);
  });
});

/** Agentverse's chat-protocol template, as users bring it. */
const CHAT_TEMPLATE = `from datetime import datetime
from uuid import uuid4

from uagents import Agent, Context, Protocol
from uagents_core.contrib.protocols.chat import (
    ChatAcknowledgement,
    ChatMessage,
    EndSessionContent,
    TextContent,
    chat_protocol_spec,
)

agent = Agent()
chat_proto = Protocol(spec=chat_protocol_spec)


@chat_proto.on_message(ChatMessage)
async def handle_message(ctx: Context, sender: str, msg: ChatMessage):
    await ctx.send(sender, ChatAcknowledgement(timestamp=datetime.now(), acknowledged_msg_id=msg.msg_id))
    text = ""
    for item in msg.content:
        if isinstance(item, TextContent):
            text += item.text
    ctx.logger.info(f"Received message from {sender}: {text}")
    await ctx.send(
        sender,
        ChatMessage(
            timestamp=datetime.utcnow(),
            msg_id=uuid4(),
            content=[TextContent(type="text", text=f"echo: {text}"), EndSessionContent(type="end-session")],
        ),
    )


@chat_proto.on_message(ChatAcknowledgement)
async def handle_ack(ctx: Context, sender: str, msg: ChatAcknowledgement):
    pass


agent.include(chat_proto, publish_manifest=True)

if __name__ == "__main__":
    agent.run()
`;

describe('The Agentverse-style template the README and docs/python-agents.md show', () => {
  const templates = [...new Set([...documentedAgents(README), ...documentedAgents(PYTHON_AGENTS_DOC)])];

  it('is there to run', () => {
    expect(templates.length).toBeGreaterThan(0);
  });

  it.each(templates.map((code, index) => [index, code]))(
    'runs unchanged (template %i): a Ping twice, the count stored, the lines logged',
    async (_, code) => {
      const key = await accountKey();
      const agent = await createAgent(key, 'documented template');
      await json(call(key, 'PUT', `/v1/hosting/agents/${agent.address}/code`, { code: codeOf({ 'agent.py': code }, 'python') }));
      expect((await start(key, agent.address)).running).toBe(true);
      await logLine(key, agent.address, `my address is ${agent.address}`, 30_000);
      const ctx = peerContext();
      const [first] = await ctx.sendAndReceive(agent.address, Ping({ text: 'one' }), { response: Pong, timeout: 30_000 });
      const [second] = await ctx.sendAndReceive(agent.address, Ping({ text: 'two' }), { response: Pong, timeout: 30_000 });
      expect([first?.payload, second?.payload]).toEqual([
        { text: 'pong to one', count: 1 },
        { text: 'pong to two', count: 2 },
      ]);
      await logLine(key, agent.address, `ping number 2 from ${ctx.address}: two`);
    },
  );
});

describe('Python code that fails', () => {
  it('does not start on a syntax error, which the logs show with its line', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'python broken');
    const code = 'from uagents import Agent\n\nagent = Agent()\n\ndef broken(:\n    pass\n';
    await json(call(key, 'PUT', `/v1/hosting/agents/${agent.address}/code`, { code: codeOf({ 'agent.py': code }, 'python') }));
    expect(await start(key, agent.address)).toMatchObject({ running: false, compiled: false });
    const line = await logLine(key, agent.address, 'SyntaxError');
    expect(line.log_entry).toContain('agent.py", line 5');
  });
});

describe("a Python agent's memory", () => {
  it('is bounded by the guest budget: a 300 MiB allocation is a MemoryError in the agent, which keeps answering', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'python hog');
    const code = `from uagents import Agent, Context, Model


class Ping(Model):
    text: str


class Pong(Model):
    text: str
    count: int


agent = Agent()


@agent.on_message(model=Ping)
async def hog(ctx: Context, sender: str, msg: Ping):
    try:
        hoard = bytearray(300 * 1024 * 1024)
        ctx.logger.info(f"kept {len(hoard) // (1024 * 1024)} MiB")
    except MemoryError:
        ctx.logger.info("refused: MemoryError")
    small = bytearray(16 * 1024 * 1024)
    await ctx.send(sender, Pong(text=f"still here with {len(small) // (1024 * 1024)} MiB", count=1))
`;
    await json(call(key, 'PUT', `/v1/hosting/agents/${agent.address}/code`, { code: codeOf({ 'agent.py': code }, 'python') }));
    expect((await start(key, agent.address)).running).toBe(true);
    const ctx = peerContext();
    const [reply] = await ctx.sendAndReceive(agent.address, Ping({ text: 'hog' }), { response: Pong, timeout: 30_000 });
    expect(reply?.payload).toEqual({ text: 'still here with 16 MiB', count: 1 });
    await logLine(key, agent.address, 'refused: MemoryError', 30_000);
  });
});

describe('Python agents on a schedule and as senders', () => {
  it('runs intervals while running and the shutdown handler on stop', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'python ticker');
    const code = `from uagents import Agent, Context

agent = Agent()


@agent.on_interval(period=1.0)
def tick(ctx: Context):
    ticks = (ctx.storage.get("ticks") or 0) + 1
    ctx.storage.set("ticks", ticks)
    ctx.logger.info(f"tick {ticks}")


@agent.on_event("shutdown")
async def bye(ctx: Context):
    ctx.logger.warning(f"bye after {ctx.storage.get('ticks')} ticks")
`;
    await json(call(key, 'PUT', `/v1/hosting/agents/${agent.address}/code`, { code: codeOf({ 'agent.py': code }, 'python') }));
    await start(key, agent.address);
    await logLine(key, agent.address, 'tick 2', 30_000);
    await json(call(key, 'POST', `/v1/hosting/agents/${agent.address}/stop`));
    expect(await logLine(key, agent.address, 'bye after')).toMatchObject({ log_level: 'warn', log_type: 'execution' });
  });

  it('asks another agent with send_and_receive and gets its typed reply', async () => {
    const key = await accountKey();
    const greeter = await createAgent(key, 'greeter');
    await putCode(key, greeter.address, GREETER);
    await start(key, greeter.address);
    const asker = await createAgent(key, 'python asker');
    await json(call(key, 'POST', '/v1/hosting/secrets', { address: asker.address, name: 'GREETER', secret: greeter.address }));
    const code = `import os

from uagents import Agent, Context, Model


class Greeting(Model):
    text: str


class Reply(Model):
    text: str
    count: float


class Ask(Model):
    name: str


agent = Agent()


@agent.on_message(model=Ask)
async def ask(ctx: Context, sender: str, msg: Ask):
    reply, status = await ctx.send_and_receive(os.environ["GREETER"], Greeting(text=msg.name), response_type=Reply)
    ctx.logger.info(f"greeter said {reply.text!r} ({reply.count:.0f}), delivery {status.status}")
`;
    await json(call(key, 'PUT', `/v1/hosting/agents/${asker.address}/code`, { code: codeOf({ 'agent.py': code }, 'python') }));
    await start(key, asker.address);
    const Ask = model('Ask', z.object({ name: z.string() }));
    const sender = Identity.fromSeed('python asker test sender', 0);
    const submitted = await submit(envelopeText(sender, asker.address, Ask.digest, { name: 'python' }));
    expect(submitted.status, await submitted.clone().text()).toBe(200);
    await logLine(key, asker.address, "greeter said 'hello, python' (1), delivery delivered", 30_000);
  });
});

describe("a Python handler's context", () => {
  it("carries the incoming message's session as ctx.session", async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'python session');
    const code = `from uagents import Agent, Context, Model


class Ping(Model):
    text: str


agent = Agent()


@agent.on_message(model=Ping)
async def answer(ctx: Context, sender: str, msg: Ping):
    ctx.logger.info(f"{msg.text} in session {ctx.session}")
`;
    await json(call(key, 'PUT', `/v1/hosting/agents/${agent.address}/code`, { code: codeOf({ 'agent.py': code }, 'python') }));
    await start(key, agent.address);
    const session = crypto.randomUUID();
    const sender = Identity.fromSeed('python session test sender', 0);
    const submitted = await submit(envelopeText(sender, agent.address, Ping.digest, { text: 'hello' }, session));
    expect(submitted.status, await submitted.clone().text()).toBe(200);
    await logLine(key, agent.address, `hello in session ${session}`, 30_000);
  });
});

describe('Python agents started from the same memory snapshot', () => {
  it("draw their own random numbers (random's state is not the snapshot's)", async () => {
    const key = await accountKey();
    const code = `import random

from uagents import Agent, Context

agent = Agent()


@agent.on_event("startup")
async def draw(ctx: Context):
    ctx.logger.info(f"drew {random.random()!r}")
`;
    const draws: string[] = [];
    for (const name of ['python dice one', 'python dice two']) {
      const agent = await createAgent(key, name);
      await json(call(key, 'PUT', `/v1/hosting/agents/${agent.address}/code`, { code: codeOf({ 'agent.py': code }, 'python') }));
      await start(key, agent.address);
      draws.push((await logLine(key, agent.address, 'drew ', 30_000)).log_entry);
    }
    expect(draws[0]).not.toBe(draws[1]);
  });
});

describe('the memory snapshot Python guests start from', () => {
  it('is refused to a TypeScript agent that asks the host for it (20 MiB a call it has no use for)', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'snapshot asker');
    await putCode(key, agent.address, {
      'agent.ts': `import { env } from 'cloudflare:workers';
import { defineAgent } from 'rendezvous/agent';

const agent = defineAgent({ name: 'snapshot asker' });

agent.onStartup(async (ctx) => {
  try {
    const snapshot = await env.HOST.pythonSnapshot();
    ctx.logger.info('got a snapshot of', snapshot.byteLength, 'bytes');
  } catch (error) {
    ctx.logger.info('refused:', error.message);
  }
});

export default agent;
`,
    });
    await start(key, agent.address);
    await logLine(key, agent.address, 'refused: only a Python agent starts from the memory snapshot', 30_000);
  });
});

describe("Agentverse's chat template, unchanged", () => {
  it('acknowledges a ChatMessage with the published digests and logs its text', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'python chat');
    await json(call(key, 'PUT', `/v1/hosting/agents/${agent.address}/code`, { code: codeOf({ 'agent.py': CHAT_TEMPLATE }, 'python') }));
    expect((await start(key, agent.address)).running).toBe(true);
    const ctx = peerContext();
    const message = chatMessage('hello there');
    const [ack, status] = await ctx.sendAndReceive(agent.address, message, { response: ChatAcknowledgement, timeout: 30_000 });
    expect(status.status).toBe('delivered');
    expect(ack?.payload.acknowledged_msg_id).toBe(message.payload.msg_id);
    await logLine(key, agent.address, `Received message from ${ctx.address}: hello there`);
  });
});

describe('Python code at upload', () => {
  const put = async (files: Record<string, string>, language = 'python') => {
    const key = await accountKey();
    const agent = await createAgent(key, 'python upload');
    return call(key, 'PUT', `/v1/hosting/agents/${agent.address}/code`, { code: codeOf(files, language) });
  };
  const detail = async (response: Response) => (await json<{ detail: { loc: unknown[]; msg: string }[] }>(response, 422)).detail[0]!;

  it('is refused, naming the name, when it imports what the platform lacks', async () => {
    expect(await detail(await put({ 'agent.py': 'from uagents import Agent, Context, Bureau2\n' }))).toEqual({
      loc: ['body', 'code', 0, 'value'],
      msg: 'agent.py line 1: uagents has no Bureau2 on this platform',
      type: 'value_error',
    });
    expect((await detail(await put({ 'agent.py': 'import json\nimport numpy as np\n' }))).msg).toBe(
      'agent.py line 2: module numpy is not available here (the standard library, uagents and uagents_core are)',
    );
    expect(
      (await detail(await put({ 'agent.py': 'from uagents_core.contrib.protocols.chat import (\n    ChatMessage,\n    ChatReply,\n)\n' })))
        .msg,
    ).toBe('agent.py line 1: uagents_core.contrib.protocols.chat has no ChatReply on this platform');
  });

  it('takes helper modules, the standard library and uagents as Agentverse templates import them', async () => {
    const response = await put({
      'agent.py': `import json
from datetime import datetime
from uuid import uuid4
from uagents import Agent, Context, Model, Protocol
from uagents.setup import fund_agent_if_low
from uagents_core.contrib.protocols.chat import ChatAcknowledgement, ChatMessage, TextContent, chat_protocol_spec
from helpers import greeting
from . import helpers
`,
      'helpers.py': 'def greeting(name):\n    return "hello " + name\n',
    });
    expect(response.status, await response.clone().text()).toBe(200);
  });

  it('is refused when it mixes Python with TypeScript files', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'mixed');
    const code = JSON.stringify([
      { name: 'agent.py', value: 'from uagents import Agent\n', language: 'python' },
      { name: 'helper.ts', value: 'export const x = 1;\n', language: 'typescript' },
    ]);
    expect((await detail(await call(key, 'PUT', `/v1/hosting/agents/${agent.address}/code`, { code }))).msg).toBe(
      'Python files and TypeScript/JavaScript files cannot run as one agent',
    );
  });
});

/**
 * Agentverse's deploy script (fetchai/agentverse-skills, deploy_agent.py) uploads every file it is given, each
 * with the language of its extension: `requirements.txt` as `text`, `.json` as `json`, `.md` as `markdown`,
 * `.yaml` and `.toml` as themselves. Agentverse keeps them beside the code; so does the platform.
 */
describe('data files beside the code', () => {
  const DATA_READER = `import json
import os

from uagents import Agent, Context

agent = Agent(name="configured")


@agent.on_event("startup")
async def configure(ctx: Context):
    with open(os.path.join(os.path.dirname(__file__), "config.json")) as handle:
        ctx.logger.info(f"greeting from config: {json.load(handle)['greeting']}")
`;

  it('are taken with the code, kept as sent, and readable by a Python agent beside its own file', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'configured');
    const code = JSON.stringify([
      { language: 'python', name: 'agent.py', value: DATA_READER },
      { language: 'text', name: 'requirements.txt', value: 'uagents==0.22.0\n' },
      { language: 'json', name: 'config.json', value: '{"greeting": "hello from a data file"}' },
      { language: 'markdown', name: 'README.md', value: '# configured\n' },
      { language: 'yaml', name: 'settings.yaml', value: 'a: 1\n' },
      { language: 'toml', name: 'pyproject.toml', value: '[project]\nname = "configured"\n' },
    ]);
    await json(call(key, 'PUT', `/v1/hosting/agents/${agent.address}/code`, { code }));
    expect((await json<{ code: string }>(call(key, 'GET', `/v1/hosting/agents/${agent.address}/code`))).code).toBe(code);
    expect(await start(key, agent.address)).toMatchObject({ running: true, compiled: true });
    await logLine(key, agent.address, 'greeting from config: hello from a data file');
  });

  it('go with a TypeScript agent too, and a language that is code but does not run here is still refused', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'typed and documented');
    const code = JSON.stringify([
      { language: 'markdown', name: 'README.md', value: '# a TypeScript agent\n' },
      ...Object.entries(GREETER).map(([name, value]) => ({ language: 'typescript', name, value })),
    ]);
    await json(call(key, 'PUT', `/v1/hosting/agents/${agent.address}/code`, { code }));
    expect(await start(key, agent.address)).toMatchObject({ running: true, compiled: true });
    const ruby = JSON.stringify([{ language: 'ruby', name: 'agent.rb', value: 'puts 1\n' }]);
    const refused = await json<{ detail: { msg: string }[] }>(
      call(key, 'PUT', `/v1/hosting/agents/${agent.address}/code`, { code: ruby }),
      422,
    );
    expect(refused.detail[0]!.msg).toContain('ruby code does not run on this platform');
    const onlyData = JSON.stringify([{ language: 'text', name: 'requirements.txt', value: 'uagents\n' }]);
    const empty = await json<{ detail: { msg: string }[] }>(
      call(key, 'PUT', `/v1/hosting/agents/${agent.address}/code`, { code: onlyData }),
      422,
    );
    expect(empty.detail[0]!.msg).toBe('the code holds no program: upload a Python, TypeScript or JavaScript file');
  });
});

/**
 * A reply is queued (the outbox, a Cloudflare Queue, carries at most 128,000 bytes a message) while receivers take
 * envelopes up to 1 MiB. A reply too large for it failed after the handler had run: a 500, so the sender sent
 * again and the handler ran again, and the agent's logs did not say why.
 */
describe('a reply too large to queue', () => {
  const BIG_REPLIER = `from uagents import Agent, Context, Model


class Note(Model):
    text: str


agent = Agent(name="big replier")


@agent.on_message(model=Note)
async def answer(ctx: Context, sender: str, msg: Note):
    ctx.storage.set("handled", (ctx.storage.get("handled") or 0) + 1)
    await ctx.send(sender, Note(text="y" * 200000))
`;

  it('is logged as not sent, naming the bound, and the message is answered as handled (no retry runs the handler again)', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'big replier');
    await json(call(key, 'PUT', `/v1/hosting/agents/${agent.address}/code`, { code: codeOf({ 'agent.py': BIG_REPLIER }, 'python') }));
    await start(key, agent.address);
    const Note = model('Note', z.object({ text: z.string() }));
    const sender = Identity.fromSeed('big reply asker', 0);
    const response = await submit(envelopeText(sender, agent.address, Note.digest, { text: 'answer at length' }));
    expect(response.status, await response.clone().text()).toBe(200);
    const line = await logLine(key, agent.address, `reply to ${sender.address} was not sent`);
    expect(line).toMatchObject({ log_type: 'system', log_level: 'erro' });
    expect(line.log_entry).toContain('at most 128000 bytes');
    expect(await storageValue(key, agent.address, 'handled')).toBe('1');
  });
});
