import { beforeAll, describe, expect, it } from 'vitest';
import { withEarlierTurns } from '../../lib/agent/index.ts';
import type { ChatCompletion } from '../../schemas/chat.ts';
import { createKey, post } from './helpers.ts';
import { type FakeAgent, fakeAgent } from './helpers/fake-agents.ts';

type Turn = { role: 'user' | 'assistant'; content: string };

async function complete(token: string, messages: Turn[], model = 'llm1-agentic', session?: string): Promise<ChatCompletion> {
  const response = await post('/chat/completions', token, { model, messages }, session ? { 'x-session-id': session } : {});
  expect(response.status).toBe(200);
  return (await response.json()) as ChatCompletion;
}

const received = (agent: FakeAgent) =>
  agent.inbox.map(({ message }) => message.content.map((item) => (item.type === 'text' ? item.text : '')).join(''));

let token: string;
let agent: FakeAgent;
beforeAll(async () => {
  token = (await createKey()).key;
  agent = await fakeAgent({
    name: 'Lichen desk',
    handle: 'lichen-desk',
    readme: '# Lichen desk\n\n<description>Answers questions about crustose lichen growth rates.</description>\n',
    behaviour: { kind: 'answer', reply: (question) => `lichen: ${question.length} chars` },
  });
});

const FIRST = 'How fast do crustose lichen grow?';

describe('an agent new to the conversation gets the user’s earlier questions', () => {
  it('with the history alone (no x-session-id), the follow-up carries the earlier questions, never the answers', async () => {
    const history: Turn[] = [
      { role: 'user', content: FIRST },
      { role: 'assistant', content: 'Lichen desk answered: a millimetre a year.' },
      { role: 'user', content: 'And on granite?' },
    ];
    const body = await complete(token, history);
    const expected = withEarlierTurns('And on granite?', [FIRST]);
    expect(received(agent).at(-1)).toBe(expected);
    expect(received(agent).at(-1)).not.toContain('millimetre');
    // The user sees exactly what the agent was sent, and to whom.
    expect(body.intermediate_steps.find((step) => step.step === 'sent')).toMatchObject({
      text: expected,
      agent: { address: agent.address },
    });
  });

  it('with x-session-id, the agent that has the conversation gets the question alone; the session remembers the questions', async () => {
    const session = `lichen-${crypto.randomUUID()}`;
    await complete(token, [{ role: 'user', content: FIRST }], 'llm1-agentic', session);
    expect(received(agent).at(-1)).toBe(FIRST);
    await complete(token, [{ role: 'user', content: 'And on granite?' }], 'llm1-agentic', session);
    expect(received(agent).at(-1)).toBe('And on granite?');
    // Another agent named in the same conversation has not seen it: it gets the earlier questions from the session.
    const other = await fakeAgent({
      name: 'Moss desk',
      handle: 'moss-desk',
      readme: '# Moss desk\n\n<description>Answers questions about moss.</description>\n',
      behaviour: { kind: 'answer', reply: () => 'moss' },
    });
    await complete(token, [{ role: 'user', content: '@moss-desk and moss?' }], 'llm1-agentic', session);
    expect(received(other).at(-1)).toBe(withEarlierTurns('and moss?', [FIRST, 'And on granite?']));
  });
});

describe('the choice call is metered', () => {
  it('the tokens of the model’s pick of agent and message appear in usage', async () => {
    const body = await complete(token, [{ role: 'user', content: FIRST }], 'relay-agentic');
    expect(body.intermediate_steps.find((step) => step.step === 'answered')).toBeDefined();
    // The fake upstream reports 11 + 4 tokens for the answer's wording; the choice call (the candidates as JSON, a forced tool call) comes on top.
    expect(body.usage!.prompt_tokens).toBeGreaterThan(11 + 100);
    expect(body.usage!.completion_tokens).toBeGreaterThan(4);
    expect(body.usage!.total_tokens).toBe(body.usage!.prompt_tokens + body.usage!.completion_tokens);
  });
});
