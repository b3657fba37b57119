import { env, SELF } from 'cloudflare:test';
import { vi } from 'vitest';
import { ChatAcknowledgement, chatMessage } from '../../../lib/agent/index.ts';
import { buildEnvelope, MemoryReplayGuard, parseEnvelope, serializeEnvelope, verifyEnvelope } from '../../../lib/envelope/index.ts';
import { Identity } from '../../../lib/identity/index.ts';
import { registerAgent } from '../../../lib/registry-client/index.ts';
import { type ChatMessagePayload, chatMessageSchema } from '../../../schemas/chat-protocol.ts';
import type { Envelope } from '../../../schemas/envelope.ts';
import { createKey } from '../helpers.ts';

/**
 * How a fake agent treats a chat message: answers it, takes it and stays silent, is down (503), or is dead (its
 * webhook's connection is refused, by workerd's real network: nothing listens on DEAD_PORT).
 */
type Behaviour = { kind: 'answer'; reply: (question: string) => string } | { kind: 'silent' } | { kind: 'down' } | { kind: 'dead' };

export interface FakeAgent {
  address: string;
  handle: string;
  /** Chat messages it took (verified), with their envelopes. */
  inbox: { envelope: Envelope; message: ChatMessagePayload }[];
  /** Acknowledgements of its answers it got from the chat agent. */
  acknowledgements: Envelope[];
  /** Requests the chat Worker sent to its webhook, taken or not (a dead one's refused connections too). */
  requests: number;
  behaviour: Behaviour;
  /** Sends the chat agent an answer in the session of its last message (an answer that comes when it comes). */
  answerLast(text: string): Promise<Response>;
}

const CHAT_WEBHOOK = 'http://chat.test/agent/webhook';
/** A loopback port nobody listens on (discard): the connection is refused. */
const DEAD_PORT = 'http://127.0.0.1:9/webhook';
const agents = new Map<string, FakeAgent & { identity: Identity; replay: MemoryReplayGuard }>();
let installed = false;

/** Signs `payload` from `identity` to the chat agent and posts it to the chat Worker's agent webhook. */
export function postToChatAgent(
  identity: Identity,
  target: string,
  session: string,
  message: { schemaDigest: string; protocolDigest: string | null; payload: unknown },
) {
  const envelope = buildEnvelope({ sender: identity, target, session, ...message, expires: Math.floor(Date.now() / 1000) + 600 });
  return SELF.fetch(CHAT_WEBHOOK, { method: 'POST', headers: { 'content-type': 'application/json' }, body: serializeEnvelope(envelope) });
}

/** The webhooks of fake agents, in the network the chat Worker sees (its outbound fetch); the rest passes through. */
function install(): void {
  if (installed) return;
  installed = true;
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const agent = agents.get(request.url);
    if (!agent) return realFetch(request);
    agent.requests++;
    if (agent.behaviour.kind === 'down') return Response.json({ status: 'error', message: 'down for the test' }, { status: 503 });
    if (agent.behaviour.kind === 'dead')
      return realFetch(DEAD_PORT, { method: 'POST', headers: request.headers, body: await request.text() });
    const parsed = parseEnvelope(await request.text());
    if (!parsed.ok) return Response.json({ status: 'error' }, { status: 400 });
    const verified = await verifyEnvelope(parsed.envelope, { self: agent.address, replay: agent.replay });
    if (!verified.ok) return Response.json({ status: 'error', message: verified.message }, { status: 400 });
    if (parsed.envelope.schema_digest === ChatAcknowledgement.digest) {
      agent.acknowledgements.push(parsed.envelope);
      return Response.json({ status: 'success' });
    }
    const message = chatMessageSchema.parse(verified.payload);
    agent.inbox.push({ envelope: parsed.envelope, message });
    const { sender, session } = parsed.envelope;
    const behaviour = agent.behaviour;
    const ack = ChatAcknowledgement({ timestamp: new Date().toISOString(), acknowledged_msg_id: message.msg_id });
    // As a uagents agent does: the acknowledgement, then (later, in its own request) the answer.
    void (async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      await postToChatAgent(agent.identity, sender, session, ack);
      if (behaviour.kind === 'answer') {
        const text = message.content.map((item) => (item.type === 'text' ? item.text : '')).join('');
        await postToChatAgent(agent.identity, sender, session, chatMessage(behaviour.reply(text)));
      }
    })();
    return Response.json({ status: 'success' });
  });
}

/**
 * A fake agent registered in the real registry beside the chat Worker (listed, with a handle and a README that
 * search finds), answering chat messages at its own webhook in the chat Worker's network.
 */
export async function fakeAgent(options: {
  name: string;
  handle: string;
  readme: string;
  behaviour: Behaviour;
  /** The key (read + write) of the account it registers under; a new account's by default. */
  accountKey?: string;
}): Promise<FakeAgent> {
  install();
  const seed = `fake-agent-${options.handle}`;
  const identity = Identity.fromSeed(seed, 0);
  const webhook = `http://${options.handle}.agents.test/webhook`;
  const token = options.accountKey ?? (await createKey({ permissions: ['read', 'write'] })).key;
  await registerAgent({
    seed,
    url: webhook,
    token,
    title: options.name,
    readme: options.readme,
    handle: options.handle,
    registryUrl: 'http://registry.test',
    fetch: (input, init) => env.REGISTRY_API.fetch(input as RequestInfo, init as RequestInit),
  });
  const agent: FakeAgent & { identity: Identity; replay: MemoryReplayGuard } = {
    address: identity.address,
    handle: options.handle,
    inbox: [],
    acknowledgements: [],
    requests: 0,
    behaviour: options.behaviour,
    identity,
    replay: new MemoryReplayGuard(),
    answerLast(text) {
      const last = agent.inbox.at(-1);
      if (!last) throw new Error(`${options.handle} has received nothing to answer`);
      return postToChatAgent(identity, last.envelope.sender, last.envelope.session, chatMessage(text));
    },
  };
  agents.set(webhook, agent);
  return agent;
}
