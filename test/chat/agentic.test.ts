import { createExecutionContext, env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { ChatMessage } from '../../lib/agent/index.ts';
import { Identity } from '../../lib/identity/index.ts';
import type { ChatCompletion, ChatCompletionChunk, IntermediateStep } from '../../schemas/chat.ts';
import worker from '../../workers/chat/src/index.ts';
import { createKey, LLM_BASE_URL, openai, post, readEvents, upstream } from './helpers.ts';
import { fakeAgent, postToChatAgent } from './helpers/fake-agents.ts';

/** The chat agent's address: the identity its seed (the test project's CHAT_AGENT_SEED) derives. */
const CHAT_AGENT = Identity.fromSeed(env.CHAT_AGENT_SEED, 0).address;

const readme = (topic: string, text: string) => `# ${topic}\n\n<description>${text}</description>\n\n${text}\n`;

const kinds = (steps: IntermediateStep[]) => steps.map((step) => step.step);

/** An agent's answer as the completion shows it: labelled as a third party's, its words quoted line by line. */
const thirdParty = (who: string, text: string, verified = false) =>
  `${who}, a third-party agent ${verified ? 'verified' : 'not verified'} by this platform’s operator, answered (its words, not this platform’s):\n\n${text
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n')}`;

async function complete(token: string, body: Record<string, unknown>): Promise<ChatCompletion> {
  const response = await post('/chat/completions', token, body);
  expect(response.status).toBe(200);
  return (await response.json()) as ChatCompletion;
}

/** A raw call with extra headers (x-session-id), answered 200 and read as a completion. */
async function completeIn(session: string, token: string, question: string, model = 'llm1-agentic'): Promise<ChatCompletion> {
  const response = await post(
    '/chat/completions',
    token,
    { model, messages: [{ role: 'user', content: question }] },
    { 'x-session-id': session },
  );
  expect(response.status).toBe(200);
  return (await response.json()) as ChatCompletion;
}

let token: string;
beforeAll(async () => {
  token = (await createKey()).key;
});

describe('llm1-agentic: the completion asks the agent discovery finds and answers with its reply', () => {
  it('searches, chooses, sends a signed ChatMessage, is acknowledged, and answers with the agent’s words', async () => {
    const agent = await fakeAgent({
      name: 'Glassblowing desk',
      handle: 'glass-desk',
      readme: readme('Glassblowing desk', 'Answers questions about heliotrope glassblowing and annealing kilns.'),
      behaviour: { kind: 'answer', reply: (question) => `Anneal heliotrope glass at 480 °C (you asked: ${question})` },
    });
    const question = 'How hot should a kiln be for annealing heliotrope glassblowing pieces?';
    const body = await complete(token, { model: 'llm1-agentic', messages: [{ role: 'user', content: question }] });

    expect(body.choices[0]!.message.content).toBe(
      thirdParty('Glassblowing desk (@glass-desk)', `Anneal heliotrope glass at 480 °C (you asked: ${question})`),
    );
    expect(body.choices[0]!.finish_reason).toBe('stop');
    expect(kinds(body.intermediate_steps)).toEqual(['search', 'choose', 'sent', 'acknowledged', 'answered']);
    const [search, choose, sent, , answered] = body.intermediate_steps;
    expect(search).toMatchObject({ step: 'search', error: null });
    expect(choose).toMatchObject({ step: 'choose', agent: { address: agent.address, name: 'Glassblowing desk', handle: 'glass-desk' } });
    expect(sent).toMatchObject({ step: 'sent', text: question, agent: { address: agent.address } });
    expect(answered).toMatchObject({ step: 'answered', late: false, text: `Anneal heliotrope glass at 480 °C (you asked: ${question})` });
    expect(body.executable_data.map((manifest) => manifest.address)).toContain(agent.address);

    // What the agent got: one ChatMessage from the chat agent, signed (verified by the fake), the question as text.
    expect(agent.inbox).toHaveLength(1);
    const [received] = agent.inbox;
    expect(received!.envelope.sender).toBe(CHAT_AGENT);
    expect(received!.envelope.schema_digest).toBe(ChatMessage.digest);
    expect(received!.message.content).toEqual([{ type: 'text', text: question }]);
    expect(sent).toMatchObject({ session: received!.envelope.session, msg_id: received!.message.msg_id });
    // The chat agent's runtime acknowledges the answer it took.
    await expect.poll(() => agent.acknowledgements.length, { timeout: 5_000 }).toBe(1);
  });

  it('streams each step as it happens, then the content (the official SDK reads it)', async () => {
    await fakeAgent({
      name: 'Bonsai desk',
      handle: 'bonsai-desk',
      readme: readme('Bonsai desk', 'Answers questions about juniper bonsai pruning and wiring.'),
      behaviour: { kind: 'answer', reply: () => 'Wire juniper bonsai in late winter.' },
    });
    const response = await post('/chat/completions', token, {
      model: 'llm1-agentic',
      stream: true,
      messages: [{ role: 'user', content: 'When should I wire juniper bonsai branches?' }],
    });
    expect(response.status).toBe(200);
    const chunks = (await readEvents(response)).filter((event): event is ChatCompletionChunk => event !== '[DONE]');
    const stepChunks = chunks.filter((chunk) => chunk.intermediate_steps?.length);
    const firstContent = chunks.findIndex((chunk) => chunk.choices[0]?.delta.content);
    expect(stepChunks.flatMap((chunk) => kinds(chunk.intermediate_steps!))).toEqual([
      'search',
      'choose',
      'sent',
      'acknowledged',
      'answered',
    ]);
    // One step per chunk, each with an empty delta, all before the content.
    for (const chunk of stepChunks) {
      expect(chunk.intermediate_steps).toHaveLength(1);
      expect(chunk.choices[0]!.delta).toEqual({});
      expect(chunks.indexOf(chunk)).toBeLessThan(firstContent);
    }
    expect(stepChunks[0]!.executable_data?.length).toBeGreaterThan(0);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe(
      thirdParty('Bonsai desk (@bonsai-desk)', 'Wire juniper bonsai in late winter.'),
    );

    const stream = await openai(token).chat.completions.create({
      model: 'llm1-agentic',
      stream: true,
      messages: [{ role: 'user', content: 'When should I wire juniper bonsai branches?' }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe(thirdParty('Bonsai desk (@bonsai-desk)', 'Wire juniper bonsai in late winter.'));
  });

  it('agent_discovery.execute does the same with any model', async () => {
    await fakeAgent({
      name: 'Sourdough desk',
      handle: 'sourdough-desk',
      readme: readme('Sourdough desk', 'Answers questions about rye sourdough starters and levain.'),
      behaviour: { kind: 'answer', reply: () => 'Feed a rye sourdough starter twice a day.' },
    });
    const body = await complete(token, {
      model: 'llm1',
      agent_discovery: { execute: true },
      messages: [{ role: 'user', content: 'How often should I feed a rye sourdough starter?' }],
    });
    expect(body.choices[0]!.message.content).toBe(
      thirdParty('Sourdough desk (@sourdough-desk)', 'Feed a rye sourdough starter twice a day.'),
    );
    expect(kinds(body.intermediate_steps)).toContain('answered');
  });
});

describe('with a model configured, the model chooses the agent and words the answer', () => {
  it('picks the agent and the message by a tool call, then relays the reply in its own words, the reply quoted as data', async () => {
    const first = await fakeAgent({
      name: 'Kite desk one',
      handle: 'kite-desk-one',
      readme: readme('Kite desk one', 'Answers questions about stunt kite bridles. Stunt kite bridles stunt kite.'),
      behaviour: { kind: 'answer', reply: () => 'one: tune the bridle' },
    });
    const second = await fakeAgent({
      name: 'Kite desk two',
      handle: 'kite-desk-two',
      readme: readme('Kite desk two', 'Answers questions about stunt kite bridles.'),
      behaviour: { kind: 'answer', reply: () => 'two: tune the bridle' },
    });
    const question = 'How do I tune a stunt kite bridle?';
    const body = await complete(token, { model: 'relay-agentic', messages: [{ role: 'user', content: question }] });
    const listed = body.executable_data.map((manifest) => manifest.address);
    expect(listed).toEqual(expect.arrayContaining([first.address, second.address]));
    const picked = listed.at(-1)!;
    expect(body.intermediate_steps.find((step) => step.step === 'choose')).toMatchObject({
      agent: { address: picked },
      reason: expect.stringMatching(/^the fake model prefers the last agent listed; not verified, and new or little used/),
      trust: { tier: 'new', verified: false, own: false, live: true, interactions: 0, age_days: 0 },
    });
    expect(body.intermediate_steps.find((step) => step.step === 'sent')).toMatchObject({ text: `Reworded: ${question}` });
    const reply = picked === first.address ? 'one: tune the bridle' : 'two: tune the bridle';
    expect(body.intermediate_steps.at(-1)).toMatchObject({ step: 'answered', text: reply });
    // The answer is the model's (the fake upstream's words); the agent's reply reached it as fenced JSON after our instruction.
    expect(body.choices[0]!.message.content).toMatch(
      /^Relayed from Kite desk (one|two) \(@kite-desk-(one|two)\), a third-party agent not verified by this platform’s operator, in this assistant’s words:\n\nHello from upstream\.$/,
    );
    const relayed = (await (await upstream('/last-request')).json()) as { body: { messages: { role: string; content: string }[] } };
    const [instruction, data] = relayed.body.messages.slice(-2);
    expect(instruction).toMatchObject({ role: 'system', content: expect.stringContaining('untrusted data') });
    expect(data!.role).toBe('user');
    expect(data!.content).toContain(JSON.stringify(reply));
  });
});

describe('naming an agent: @handle or its address', () => {
  it('@handle sends to that agent without a search, the mention left out of the message', async () => {
    const agent = await fakeAgent({
      name: 'Tide desk',
      handle: 'tide-desk',
      readme: readme('Tide desk', 'Answers questions about tide tables.'),
      behaviour: { kind: 'answer', reply: () => 'High tide is at 06:12.' },
    });
    const body = await complete(token, { model: 'llm1-agentic', messages: [{ role: 'user', content: '@tide-desk when is high tide?' }] });
    expect(body.choices[0]!.message.content).toBe(thirdParty('Tide desk (@tide-desk)', 'High tide is at 06:12.'));
    expect(kinds(body.intermediate_steps)).toEqual(['choose', 'sent', 'acknowledged', 'answered']);
    expect(body.intermediate_steps[0]).toMatchObject({ agent: { address: agent.address, handle: 'tide-desk' } });
    expect(body.executable_data.map((manifest) => manifest.address)).toEqual([agent.address]);
    expect(agent.inbox.at(-1)!.message.content).toEqual([{ type: 'text', text: 'when is high tide?' }]);
  });

  it('an agent1… address in the message does the same', async () => {
    const agent = await fakeAgent({
      name: 'Moon desk',
      handle: 'moon-desk',
      readme: readme('Moon desk', 'Answers questions about moon phases.'),
      behaviour: { kind: 'answer', reply: () => 'The moon is waxing.' },
    });
    const body = await complete(token, {
      model: 'llm1-agentic',
      messages: [{ role: 'user', content: `ask ${agent.address} about the moon phase` }],
    });
    expect(body.choices[0]!.message.content).toBe(thirdParty('Moon desk (@moon-desk)', 'The moon is waxing.'));
    expect(kinds(body.intermediate_steps)[0]).toBe('choose');
    expect(agent.inbox.at(-1)!.message.content).toEqual([{ type: 'text', text: 'ask about the moon phase' }]);
  });

  it('an unknown handle is a clear answer, no guess: nothing is sent', async () => {
    const body = await complete(token, { model: 'llm1-agentic', messages: [{ role: 'user', content: '@nobody-has-this what is up?' }] });
    expect(body.choices[0]!.message.content).toContain('No agent has the handle @nobody-has-this');
    expect(body.choices[0]!.finish_reason).toBe('stop');
    expect(body.intermediate_steps).toEqual([expect.objectContaining({ step: 'failed', reason: 'unknown_handle', agent: null })]);
  });
});

describe('x-session-id: a conversation continues with the same agent', () => {
  it('a follow-up in the same session reaches the same agent, in the same uAgents session, without a search', async () => {
    const agent = await fakeAgent({
      name: 'Orchid desk',
      handle: 'orchid-desk',
      readme: readme('Orchid desk', 'Answers questions about phalaenopsis orchid care.'),
      behaviour: { kind: 'answer', reply: (question) => `orchid answer to: ${question}` },
    });
    const session = `orchids-${crypto.randomUUID()}`;
    const first = await completeIn(session, token, 'How often should I water a phalaenopsis orchid?');
    expect(first.choices[0]!.message.content).toBe(
      thirdParty('Orchid desk (@orchid-desk)', 'orchid answer to: How often should I water a phalaenopsis orchid?'),
    );
    const second = await completeIn(session, token, 'And how much light?');
    expect(second.choices[0]!.message.content).toBe(thirdParty('Orchid desk (@orchid-desk)', 'orchid answer to: And how much light?'));
    expect(kinds(second.intermediate_steps)).toEqual(['choose', 'sent', 'acknowledged', 'answered']);
    const [a, b] = agent.inbox.slice(-2);
    expect(a!.envelope.session).toBe(b!.envelope.session);

    // Another key with the same x-session-id has a conversation of its own: it starts with a search.
    const other = (await createKey()).key;
    const elsewhere = await completeIn(session, other, 'And how much light?');
    expect(kinds(elsewhere.intermediate_steps)[0]).toBe('search');
  });

  it('an answer after the deadline is a clear timeout, then delivered on the session’s next request', async () => {
    const agent = await fakeAgent({
      name: 'Slow desk',
      handle: 'slow-desk',
      readme: readme('Slow desk', 'Answers questions about glacier cartography, slowly.'),
      behaviour: { kind: 'silent' },
    });
    const session = `slow-${crypto.randomUUID()}`;
    const started = Date.now();
    const first = await completeIn(session, token, '@slow-desk map the glacier');
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(first.choices[0]!.message.content).toContain('did not answer within 3 s');
    expect(first.choices[0]!.finish_reason).toBe('stop');
    expect(kinds(first.intermediate_steps)).toEqual(['choose', 'sent', 'acknowledged', 'timed_out']);

    expect((await agent.answerLast('The glacier map is ready.')).status).toBe(200);
    agent.behaviour = { kind: 'answer', reply: () => 'Second answer.' };
    const next = await completeIn(session, token, 'anything else?');
    expect(next.intermediate_steps[0]).toMatchObject({ step: 'answered', late: true, text: 'The glacier map is ready.' });
    expect(next.choices[0]!.message.content).toContain('The glacier map is ready.');
    expect(next.choices[0]!.message.content).toMatch(/Second answer\.$/);
  });
});

describe('a client that leaves while the agent works', () => {
  it('stops waiting; the answer, when it comes, waits in the session for its next request', async () => {
    const agent = await fakeAgent({
      name: 'Comet desk',
      handle: 'comet-desk',
      readme: readme('Comet desk', 'Answers questions about comet tails.'),
      behaviour: { kind: 'silent' },
    });
    const session = `comet-${crypto.randomUUID()}`;
    // SELF.fetch cannot disconnect (client-abort.test.ts): the Worker's handler gets a request whose signal is aborted.
    const leaving = new AbortController();
    const request = new Request(`${LLM_BASE_URL}/chat/completions`, {
      method: 'POST',
      signal: leaving.signal,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-session-id': session },
      body: JSON.stringify({
        model: 'llm1-agentic',
        stream: true,
        messages: [{ role: 'user', content: '@comet-desk why do comets have tails?' }],
      }),
    });
    const response = await worker.fetch(request, env, createExecutionContext());
    const reader = response.body!.getReader();
    let received = '';
    while (!received.includes('"step":"sent"')) received += new TextDecoder().decode((await reader.read()).value);
    leaving.abort();
    await reader.cancel();

    expect((await agent.answerLast('Solar wind pushes the tail away from the sun.')).status).toBe(200);
    agent.behaviour = { kind: 'answer', reply: () => 'Ices sublimate near the sun.' };
    const next = await completeIn(session, token, 'and what are they made of?');
    expect(next.intermediate_steps[0]).toMatchObject({
      step: 'answered',
      late: true,
      text: 'Solar wind pushes the tail away from the sun.',
    });
    expect(next.choices[0]!.message.content).toMatch(/Ices sublimate near the sun\.$/);
  });
});

describe('failures are answers, not hangs', () => {
  it('an agent that cannot be reached is said so (200, stop), with the step', async () => {
    await fakeAgent({
      name: 'Down desk',
      handle: 'down-desk',
      readme: readme('Down desk', 'Answers questions about lighthouse lenses.'),
      behaviour: { kind: 'down' },
    });
    const body = await complete(token, {
      model: 'llm1-agentic',
      messages: [{ role: 'user', content: '@down-desk how big is a Fresnel lens?' }],
    });
    expect(body.choices[0]!.message.content).toContain('could not be reached');
    expect(body.choices[0]!.finish_reason).toBe('stop');
    expect(body.intermediate_steps.at(-1)).toMatchObject({ step: 'unreachable', reason: 'http_503' });
  });

  it('a dead last candidate (its webhook refuses the connection) is said so after 3 attempts, not after its 10 s wait', async () => {
    const dead = await fakeAgent({
      name: 'Dead desk',
      handle: 'dead-desk',
      readme: readme('Dead desk', 'Answers questions about lighthouse keepers.'),
      behaviour: { kind: 'dead' },
    });
    const request = new Request(`${LLM_BASE_URL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'llm1-agentic', messages: [{ role: 'user', content: '@dead-desk who kept the Fastnet light?' }] }),
    });
    const started = Date.now();
    // The deployed answer deadline (45 s), not the project's 3 s, so the last candidate's 10 s wait is not cut short.
    const response = await worker.fetch(request, { ...env, AGENT_ANSWER_TIMEOUT_MS: '45000' }, createExecutionContext());
    const body = (await response.json()) as ChatCompletion;
    // Three attempts (250 + 500 ms apart), each sent once more at once after the lost connection; before, a lost
    // connection was tried until the last candidate's 10 s were up.
    expect(dead.requests).toBe(6);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(body.choices[0]!.message.content).toContain('could not be reached');
    expect(kinds(body.intermediate_steps)).not.toContain('sent');
    expect(body.intermediate_steps.at(-1)).toMatchObject({ step: 'unreachable', reason: 'no_answer' });
  }, 30_000);

  it('an unreachable candidate is passed over for the next one', async () => {
    const dead = await fakeAgent({
      name: 'Saffron desk one',
      handle: 'saffron-one',
      readme: readme('Saffron desk one', 'Answers questions about saffron crocus harvests. Saffron crocus harvest saffron crocus.'),
      behaviour: { kind: 'down' },
    });
    const live = await fakeAgent({
      name: 'Saffron desk two',
      handle: 'saffron-two',
      readme: readme('Saffron desk two', 'Answers questions about saffron crocus harvests.'),
      behaviour: { kind: 'answer', reply: () => 'Harvest saffron crocus at dawn.' },
    });
    const body = await complete(token, {
      model: 'llm1-agentic',
      messages: [{ role: 'user', content: 'When is the saffron crocus harvest?' }],
    });
    expect(body.choices[0]!.message.content).toBe(thirdParty('Saffron desk two (@saffron-two)', 'Harvest saffron crocus at dawn.'));
    const unreachable = body.intermediate_steps.filter((step) => step.step === 'unreachable');
    const sent = body.intermediate_steps.filter((step) => step.step === 'sent');
    expect(sent).toEqual([expect.objectContaining({ agent: expect.objectContaining({ address: live.address }) })]);
    expect(unreachable).toEqual([expect.objectContaining({ agent: expect.objectContaining({ address: dead.address }) })]);
  });

  it('tools with an agentic model, or an x-session-id that is too long, are a 400', async () => {
    const tools = [{ type: 'function', function: { name: 'lookup' } }];
    const withTools = await post('/chat/completions', token, { model: 'llm1-agentic', tools, messages: [{ role: 'user', content: 'hi' }] });
    expect(withTools.status).toBe(400);
    expect(await withTools.json()).toMatchObject({ error: { param: 'tools' } });
    const long = await post(
      '/chat/completions',
      token,
      { model: 'llm1-agentic', messages: [{ role: 'user', content: 'hi' }] },
      { 'x-session-id': 'x'.repeat(201) },
    );
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ error: { param: 'x-session-id' } });
  });
});

describe('the chat agent’s webhook hears only the agent a conversation is with', () => {
  it('refuses a chat message in an unknown session (404) or from another agent (403)', async () => {
    const agent = await fakeAgent({
      name: 'Fern desk',
      handle: 'fern-desk',
      readme: readme('Fern desk', 'Answers questions about fern spores.'),
      behaviour: { kind: 'answer', reply: () => 'Ferns spread by spores.' },
    });
    await complete(token, { model: 'llm1-agentic', messages: [{ role: 'user', content: '@fern-desk how do ferns spread?' }] });
    const session = agent.inbox.at(-1)!.envelope.session;
    const stranger = Identity.fromSeed('stranger-agent', 0);
    const intruding = await postToChatAgent(
      stranger,
      CHAT_AGENT,
      session,
      ChatMessage({ timestamp: new Date().toISOString(), msg_id: crypto.randomUUID(), content: [{ type: 'text', text: 'trust me' }] }),
    );
    expect(intruding.status).toBe(403);
    const unknown = await postToChatAgent(
      stranger,
      CHAT_AGENT,
      crypto.randomUUID(),
      ChatMessage({ timestamp: new Date().toISOString(), msg_id: crypto.randomUUID(), content: [{ type: 'text', text: 'hello' }] }),
    );
    expect(unknown.status).toBe(404);
  });
});
