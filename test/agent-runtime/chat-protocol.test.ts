import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHAT_PROTOCOL_DIGEST, ChatAcknowledgement, ChatMessage } from '../../lib/agent/index.ts';
import { buildEnvelope, serializeEnvelope } from '../../lib/envelope/index.ts';
import { Identity } from '../../lib/identity/index.ts';
import vectors from '../fixtures/interop/envelope.json';
import { addressOf, agentsRegistered, errorOf, events, post, postJson, settle } from './helpers.ts';

beforeAll(agentsRegistered);

interface Seen {
  message: Record<string, unknown>;
  schema_digest: string;
  protocol_digest: string | null;
}
const seen = (event: { payload: unknown }) => event.payload as Seen;
const chatEvents = async (agent: 'alice' | 'bob', session: string, model: 'ChatMessage' | 'ChatAcknowledgement', count: number) =>
  (await settle({ agent, kind: 'received', session }, count)).filter((event) => event.model === model);

/** A chat envelope signed by alice (the fixture's seed), posted to bob's webhook as any outside sender would. */
function fromAlice(bob: string, payload: unknown, session = crypto.randomUUID()) {
  return serializeEnvelope(
    buildEnvelope({
      sender: Identity.fromSeed(env.ALICE_SEED, 0),
      target: bob,
      session,
      schemaDigest: ChatMessage.digest,
      protocolDigest: CHAT_PROTOCOL_DIGEST,
      payload,
      expires: Math.floor(Date.now() / 1000) + 60,
      nonce: Date.now(),
    }),
  );
}

const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('AgentChatProtocol digests', () => {
  it('are the ones uagents-core 0.4.9 publishes', () => {
    expect(ChatMessage.digest).toBe(vectors.schema_digests['ChatMessage (AgentChatProtocol)']);
    expect(CHAT_PROTOCOL_DIGEST).toBe(vectors.protocol_digests.AgentChatProtocol);
    expect(ChatAcknowledgement.digest).toMatch(/^model:[0-9a-f]{64}$/);
  });

  it('an agent with a chat handler registers the protocol', async () => {
    const record = (await (await env.REGISTRY.fetch(`http://registry.test/v1/almanac/agents/${await addressOf('bob')}`)).json()) as {
      protocols: string[];
    };
    // The almanac lists digests as bare hex, as uAgents' almanac does.
    expect(record.protocols).toContain(CHAT_PROTOCOL_DIGEST.replace(/^proto:/, ''));
  });
});

describe('agents chat over AgentChatProtocol', () => {
  it('a chat message is acknowledged by the runtime and answered, each in its session, with the protocol’s digests', async () => {
    const [alice, bob] = [await addressOf('alice'), await addressOf('bob')];
    const { session, msg_id } = await postJson<{ session: string; msg_id: string }>('/test/alice/chat', { to: 'bob', text: 'hello bob' });
    expect(msg_id).toMatch(UUID4);

    const [received] = await chatEvents('bob', session, 'ChatMessage', 1);
    expect(received!.sender).toBe(alice);
    expect(seen(received!)).toEqual({
      message: { timestamp: expect.any(String), msg_id, content: [{ type: 'text', text: 'hello bob' }] },
      schema_digest: ChatMessage.digest,
      protocol_digest: CHAT_PROTOCOL_DIGEST,
    });

    // Alice: bob's acknowledgement of her message and his answer; bob: alice's acknowledgement of that answer.
    await settle({ agent: 'alice', kind: 'received', session }, 2);
    const [ack] = await chatEvents('alice', session, 'ChatAcknowledgement', 1);
    expect(ack!.sender).toBe(bob);
    expect(seen(ack!)).toEqual({
      message: { timestamp: expect.any(String), acknowledged_msg_id: msg_id },
      schema_digest: ChatAcknowledgement.digest,
      protocol_digest: CHAT_PROTOCOL_DIGEST,
    });
    const answers = await chatEvents('alice', session, 'ChatMessage', 1);
    expect(answers).toHaveLength(1);
    const answer = seen(answers[0]!).message as { msg_id: string; content: unknown };
    expect(answer.content).toEqual([{ type: 'text', text: 'echo: hello bob' }]);
    expect(answer.msg_id).not.toBe(msg_id);
    const [answerAck] = await chatEvents('bob', session, 'ChatAcknowledgement', 1);
    expect(seen(answerAck!).message.acknowledged_msg_id).toBe(answer.msg_id);
    // Each message acknowledged once.
    expect(await chatEvents('alice', session, 'ChatAcknowledgement', 1)).toHaveLength(1);
  });

  it('sent synchronously, the reply in the HTTP response is the acknowledgement (as with a Python agent); the answer follows', async () => {
    const bob = await addressOf('bob');
    const { session, msg_id, reply, status } = await postJson<{
      session: string;
      msg_id: string;
      reply: { sender: string; session: string; schemaDigest: string; payload: { acknowledged_msg_id: string } };
      status: { status: string };
    }>('/test/alice/chat', { to: 'bob', text: 'sync hello', sync: true });
    expect(status.status).toBe('delivered');
    expect(reply).toMatchObject({
      sender: bob,
      session,
      schemaDigest: ChatAcknowledgement.digest,
      payload: { acknowledged_msg_id: msg_id },
    });
    const answers = await chatEvents('alice', session, 'ChatMessage', 1);
    expect(answers.map((event) => (seen(event).message as { content: unknown }).content)).toEqual([
      [{ type: 'text', text: 'echo: sync hello' }],
    ]);
    // The acknowledgement came back in the response: none is queued to alice besides it.
    expect(await chatEvents('alice', session, 'ChatAcknowledgement', 0)).toEqual([]);
  });

  it('a message taken without an answer is still acknowledged', async () => {
    const { session, msg_id } = await postJson<{ session: string; msg_id: string }>('/test/alice/chat', { to: 'bob', text: 'silent' });
    const [ack] = await chatEvents('alice', session, 'ChatAcknowledgement', 1);
    expect(seen(ack!).message.acknowledged_msg_id).toBe(msg_id);
    expect(await chatEvents('alice', session, 'ChatMessage', 0)).toEqual([]);
  });

  it('takes what a Python agent sends: pydantic’s JSON, a naive timestamp, session and metadata items', async () => {
    const bob = await addressOf('bob');
    const session = crypto.randomUUID();
    const msgId = crypto.randomUUID();
    const payload = {
      timestamp: '2026-11-23T22:41:46.123456',
      msg_id: msgId,
      content: [{ type: 'start-session' }, { type: 'metadata', metadata: { attachments: 'false' } }, { type: 'text', text: 'from python' }],
    };
    const response = await post('/bob/webhook', fromAlice(bob, payload, session));
    expect(response.status).toBe(200);
    const [ack] = await chatEvents('alice', session, 'ChatAcknowledgement', 1);
    expect(seen(ack!).message.acknowledged_msg_id).toBe(msgId);
  });
});

describe('chat messages the runtime refuses', () => {
  it('a handler’s refusal is the answer, and no acknowledgement is sent', async () => {
    const bob = await addressOf('bob');
    const session = crypto.randomUUID();
    const payload = { timestamp: new Date().toISOString(), msg_id: crypto.randomUUID(), content: [{ type: 'text', text: 'refuse' }] };
    const response = await post('/bob/webhook', fromAlice(bob, payload, session));
    expect(response.status).toBe(403);
    expect(errorOf(await response.json()).message).toBe('bob does not take this message');
    expect((await settle({ agent: 'bob', kind: 'received', session }, 1)).map((event) => event.model)).toEqual(['ChatMessage']);
    expect(await events({ agent: 'alice', session })).toEqual([]);
  });

  it.each([
    ['a msg_id that is no UUID v4', { msg_id: 'msg-1' }, 'msg_id'],
    ['no timestamp', { timestamp: undefined }, 'timestamp'],
    ['a timestamp that is no date', { timestamp: 'yesterday' }, 'timestamp'],
    ['content that is no list', { content: 'hello' }, 'content'],
    ['a content item of no known type', { content: [{ type: 'card', text: 'x' }] }, 'content.0.type'],
    ['a text item without text', { content: [{ type: 'text' }] }, 'content.0.text'],
    ['a resource without its id', { content: [{ type: 'resource', resource: { uri: 'https://x.test/a', metadata: {} } }] }, 'content.0'],
  ])('%s: 400 invalid_payload naming the field, nothing handled, nothing acknowledged', async (_, change, field) => {
    const bob = await addressOf('bob');
    const session = crypto.randomUUID();
    const payload = {
      timestamp: new Date().toISOString(),
      msg_id: crypto.randomUUID(),
      content: [{ type: 'text', text: 'hi' }],
      ...change,
    };
    const response = await post('/bob/webhook', fromAlice(bob, payload, session));
    expect(response.status).toBe(400);
    const error = errorOf(await response.json());
    expect(error).toMatchObject({ type: 'invalid_envelope', code: 'invalid_payload' });
    expect(error.message).toContain('payload is not a valid ChatMessage: ');
    expect(error.message).toContain(field);
    expect(await settle({ session }, 0)).toEqual([]);
  });

  it('an acknowledgement of no valid shape is refused too', async () => {
    const bob = await addressOf('bob');
    const envelope = buildEnvelope({
      sender: Identity.fromSeed(env.ALICE_SEED, 0),
      target: bob,
      session: crypto.randomUUID(),
      schemaDigest: ChatAcknowledgement.digest,
      protocolDigest: CHAT_PROTOCOL_DIGEST,
      payload: { timestamp: new Date().toISOString(), acknowledged_msg_id: 'nope' },
      expires: Math.floor(Date.now() / 1000) + 60,
    });
    const response = await post('/bob/webhook', serializeEnvelope(envelope));
    expect(response.status).toBe(400);
    expect(errorOf(await response.json())).toMatchObject({
      code: 'invalid_payload',
      message: expect.stringContaining('ChatAcknowledgement'),
    });
  });
});
