import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHAT_PROTOCOL_DIGEST, ChatMessage, withEarlierTurns } from '../../lib/agent/index.ts';
import { Identity } from '../../lib/identity/index.ts';
import { chatMessageSchema } from '../../schemas/chat-protocol.ts';
import { requestEnvelope, send } from './helpers/envelopes.ts';
import { almanacRecord, type FakeNetwork, installFakeNetwork } from './helpers/fake-network.ts';

let network: FakeNetwork;
beforeEach(() => {
  network = installFakeNetwork();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const chatIn = (session: string, text: string, sender?: Identity) =>
  requestEnvelope(
    { timestamp: new Date().toISOString(), msg_id: crypto.randomUUID(), content: [{ type: 'text', text }] },
    { schemaDigest: ChatMessage.digest, protocolDigest: CHAT_PROTOCOL_DIGEST, session, ...(sender ? { sender } : {}) },
  );

const answersIn = (session: string, sender?: string) =>
  network.delivered
    .filter((d) => d.envelope.session === session && d.envelope.schema_digest === ChatMessage.digest)
    .filter((d) => !sender || d.envelope.target === sender)
    .map((d) => {
      const content = chatMessageSchema.parse(d.payload).content[0];
      return content?.type === 'text' ? content.text : '';
    });

/** Asks in `session` and waits for the answer to that question (the session's next chat message). */
async function ask(session: string, text: string, sender?: Identity): Promise<string> {
  const before = answersIn(session, sender?.address).length;
  expect((await send(chatIn(session, text, sender))).status).toBe(200);
  await vi.waitFor(() => expect(answersIn(session, sender?.address).length).toBe(before + 1), { timeout: 25_000 });
  return answersIn(session, sender?.address).at(-1)!;
}

/** The supervisor's answer: the text before the first section (plan, search, filings follow it). */
const answerOf = (text: string) => text.split('\n\n## ')[0]!;

// NVIDIA in data/edgar: revenue FY2024 $60,922M, FY2023 $26,974M; net income FY2023 $4,368M. Apple FY2022 revenue $394,328M.
describe('the specialist keeps the subject of each chat session', () => {
  it('resolves follow-ups that change the period, then the figure, then add a company', async () => {
    const session = crypto.randomUUID();
    expect(answerOf(await ask(session, "What was NVIDIA's revenue in fiscal 2024?"))).toMatch(/Revenue: \$60\.92B in FY2024/);

    const period = answerOf(await ask(session, 'And in fiscal 2023?'));
    expect(period).toMatch(/^NVIDIA \(NVDA\), fiscal 2023:\n- Revenue: \$26\.97B in FY2023/);
    expect(period).not.toContain('FY2024');

    const figure = answerOf(await ask(session, 'What about net income?'));
    expect(figure).toMatch(/^NVIDIA \(NVDA\), fiscal 2023:\n- Net income: \$4\.37B in FY2023/);
    expect(figure).not.toContain('Revenue');

    const compared = answerOf(await ask(session, 'How does that compare with Apple?'));
    expect(compared).toContain('NVIDIA (NVDA), fiscal 2023:\n- Net income: $4.37B in FY2023');
    expect(compared).toMatch(/Apple \(AAPL\), fiscal 2023:\n- Net income: \$/);
    expect(compared).not.toContain('Revenue');
  }, 60_000);

  it('a new session starts clean, and another sender’s session of the same id is its own', async () => {
    const session = crypto.randomUUID();
    await ask(session, "What was NVIDIA's revenue in fiscal 2024?");

    expect(answerOf(await ask(crypto.randomUUID(), 'And in fiscal 2023?'))).toContain('I could not tell which company');

    const other = Identity.fromSeed(`second sender ${crypto.randomUUID()}`, 0);
    network.almanac.set(other.address, almanacRecord(other.address));
    expect(answerOf(await ask(session, 'And in fiscal 2023?', other))).toContain('I could not tell which company');
    // The first sender's session still holds its subject.
    expect(answerOf(await ask(session, 'And in fiscal 2023?'))).toMatch(/Revenue: \$26\.97B in FY2023/);
  }, 60_000);

  it('a session it has not seen is answered from the earlier questions the sender carries', async () => {
    const carried = withEarlierTurns('And in fiscal 2023?', ["What was NVIDIA's revenue in fiscal 2024?"]);
    const answer = await ask(crypto.randomUUID(), carried);
    expect(answerOf(answer)).toMatch(/^NVIDIA \(NVDA\), fiscal 2023:\n- Revenue: \$26\.97B in FY2023/);
    // The plan names the question alone, read with the carried ones.
    expect(answer).toContain('Question: And in fiscal 2023?\n');
    expect(answer).toContain('Read with the conversation so far');
  }, 60_000);
});
