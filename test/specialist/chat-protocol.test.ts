import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHAT_PROTOCOL_DIGEST, ChatAcknowledgement, ChatMessage } from '../../lib/agent/index.ts';
import { Identity } from '../../lib/identity/index.ts';
import { chatAcknowledgementSchema, chatMessageSchema, type AgentContent } from '../../schemas/chat-protocol.ts';
import { requestEnvelope, send, SPECIALIST } from './helpers/envelopes.ts';
import { almanacRecord, installFakeNetwork, ROUTER, type FakeNetwork } from './helpers/fake-network.ts';

let network: FakeNetwork;
beforeEach(() => {
  network = installFakeNetwork();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const stranger = () => Identity.fromSeed(`stranger ${crypto.randomUUID()}`, 0);

/** A ChatMessage envelope to the specialist, signed by the router (or `sender`), under the protocol's digests. */
function chatEnvelope(content: AgentContent[] | string, options: { sender?: Identity; payload?: unknown } = {}) {
  const payload = options.payload ?? {
    timestamp: new Date().toISOString(),
    msg_id: crypto.randomUUID(),
    content: typeof content === 'string' ? [{ type: 'text', text: content }] : content,
  };
  return requestEnvelope(payload, {
    schemaDigest: ChatMessage.digest,
    protocolDigest: CHAT_PROTOCOL_DIGEST,
    ...(options.sender ? { sender: options.sender } : {}),
  });
}

const msgIdOf = (envelope: ReturnType<typeof chatEnvelope>) => JSON.parse(atob(envelope.payload!)).msg_id as string;
const inSession = (session: string) => network.delivered.filter((d) => d.envelope.session === session);
const acknowledgements = (session: string) => inSession(session).filter((d) => d.envelope.schema_digest === ChatAcknowledgement.digest);
const chatMessages = (session: string) => inSession(session).filter((d) => d.envelope.schema_digest === ChatMessage.digest);

describe('the specialist over AgentChatProtocol', () => {
  it('acknowledges a question, then answers with its analysis as a chat message in the same session, signed', async () => {
    const envelope = chatEnvelope("What was NVIDIA's revenue in fiscal 2024?");
    const response = await send(envelope);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'analysis_sent' });

    await vi.waitFor(() => expect(chatMessages(envelope.session)).toHaveLength(1), { timeout: 25_000 });
    await vi.waitFor(() => expect(acknowledgements(envelope.session)).toHaveLength(1), { timeout: 10_000 });
    // The fake router verified every delivery (signature, target, replay) before recording it.
    for (const { envelope: reply } of inSession(envelope.session)) {
      expect(reply.sender).toBe(SPECIALIST.address);
      expect(reply.target).toBe(ROUTER.address);
      expect(reply.protocol_digest).toBe(CHAT_PROTOCOL_DIGEST);
    }
    const ack = chatAcknowledgementSchema.parse(acknowledgements(envelope.session)[0]!.payload);
    expect(ack.acknowledged_msg_id).toBe(msgIdOf(envelope));

    const answer = chatMessageSchema.parse(chatMessages(envelope.session)[0]!.payload);
    expect(answer.msg_id).not.toBe(msgIdOf(envelope));
    expect(answer.content).toHaveLength(1);
    const text = answer.content[0]!.type === 'text' ? answer.content[0]!.text : '';
    // NVIDIA's fiscal 2024 (ended 2024-01-28) revenue in its 10-K: $60,922M.
    expect(text).toMatch(/^NVIDIA \(NVDA\), fiscal 2024:\n- Revenue: \$60\.92B in FY2024/);
    const headings = [...text.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    expect(headings).toEqual(['Supervisor (plan)', 'Search Worker (search)', 'Filings Analyst (filings)']);
    expect(text).toContain('| FY2024');
  });

  it('the `{request}` path is unchanged: the same question under the same digest gets {analysis_result}', async () => {
    const envelope = requestEnvelope({ request: "What was NVIDIA's revenue in fiscal 2024?" });
    expect((await send(envelope)).status).toBe(200);
    await vi.waitFor(() => expect(inSession(envelope.session)).toHaveLength(1), { timeout: 25_000 });
    expect(inSession(envelope.session)[0]!.payload).toMatchObject({ analysis_result: { analysis: expect.any(Array) } });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(acknowledgements(envelope.session)).toHaveLength(0);
  });

  it('a message without text (a bare start-session) is acknowledged and asks nothing', async () => {
    const envelope = chatEnvelope([{ type: 'start-session' }]);
    const response = await send(envelope);
    expect(response.status).toBe(200);
    await vi.waitFor(() => expect(acknowledgements(envelope.session)).toHaveLength(1), { timeout: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(chatMessages(envelope.session)).toHaveLength(0);
    expect(network.edgarRequests).toHaveLength(0);
  });

  it('refuses a sender no account registered: 403, no acknowledgement, nothing analysed', async () => {
    const envelope = chatEnvelope('What was Apple revenue in 2024?', { sender: stranger() });
    const response = await send(envelope);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ status: 'error', message: 'sender is not an agent registered under an account' });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(network.delivered).toHaveLength(0);
    expect(network.edgarRequests).toHaveLength(0);
  });

  it('refuses a question longer than 10,000 characters: 400 naming the limit, never a 500, nothing analysed', async () => {
    const response = await send(chatEnvelope(`Apple revenue ${'x'.repeat(200_000)}`));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ status: 'error', message: 'the request is longer than 10,000 characters' });
    expect(network.edgarRequests).toHaveLength(0);
  });

  it('takes chat messages from the sender’s per-minute budget: 429 past it, unacknowledged', async () => {
    const limit = Number(env.SENDER_REQUESTS_PER_MINUTE);
    const sender = stranger();
    network.almanac.set(sender.address, almanacRecord(sender.address));
    // The budget spent on `{request}` questions (refused as empty, so nothing is sent to this sender's made-up webhook).
    for (let i = 0; i < limit; i++) expect((await send(requestEnvelope({ request: '' }, { sender }))).status).toBe(400);
    const refused = chatEnvelope('What was Apple revenue in 2024?', { sender });
    const response = await send(refused);
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(inSession(refused.session)).toHaveLength(0);
  }, 60_000);

  it('answers a malformed chat message with 400 invalid_payload naming the field', async () => {
    const envelope = chatEnvelope('', { payload: { timestamp: new Date().toISOString(), msg_id: 'not-a-uuid', content: [] } });
    const response = await send(envelope);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('invalid_payload');
    expect(body.error.message).toMatch(/^payload is not a valid ChatMessage: msg_id: /);
  });
});
