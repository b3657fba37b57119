import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ChatCompletion, IntermediateStep } from '../../schemas/chat.ts';
import type { TempStack } from './helpers/temp-stack.ts';
import { type RunningAgent, spawnUagentsAgent, uagentsPython } from './helpers/uagents-python.ts';
import { startUagentsStack } from './helpers/uagents-stack.ts';

/**
 * `llm1-agentic` answered by a uAgents agent that has no URL: the agent (test/interop/mailbox/chat_agent.py,
 * uAgents' own MailboxClient and uagents_core's senders) connects by mailbox; the chat agent resolves it through
 * the almanac to the registry's mailbox endpoint and posts the question there; the Python agent polls it, answers
 * over the chat protocol to the chat agent's webhook, and the completion carries its answer.
 */

type AgenticCompletion = OpenAI.Chat.Completions.ChatCompletion & Pick<ChatCompletion, 'intermediate_steps'>;

const readySchema = z.object({
  event: z.literal('ready'),
  address: z.string(),
  token: z.string(),
  connected: z.object({ success: z.boolean(), detail: z.string().nullable() }),
});
const questionSchema = z.object({ event: z.literal('question'), sender: z.string(), session: z.string(), text: z.string() });
const answeredSchema = z.object({
  event: z.literal('answered'),
  text: z.string(),
  acknowledged: z.array(z.number()),
  answered: z.array(z.number()),
});

/** The steps' kinds without the acknowledgement, which may come before or after the answer (two separate posts). */
const kinds = (steps: IntermediateStep[]) => steps.map((step) => step.step).filter((kind) => kind !== 'acknowledged');

describe.skipIf(!uagentsPython)('llm1-agentic answered by a uAgents agent connected only by mailbox', () => {
  let temp: TempStack;
  let agent: RunningAgent;
  let ready: z.infer<typeof readySchema>;
  let client: OpenAI;
  const handle = `mailboxchat${crypto.randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    const started = await startUagentsStack('mailbox chat', ['read', 'write', 'chat'], ['chat']);
    temp = started.temp;
    const { base, key } = started;
    client = new OpenAI({ apiKey: key, baseURL: `${temp.stack.urls.chat}/v1`, maxRetries: 0, timeout: 90_000 });
    agent = spawnUagentsAgent('chat_agent.py', [
      '--base',
      base,
      '--key',
      key,
      '--seed',
      `mailbox chat agent ${handle}`,
      '--handle',
      handle,
    ]);
    ready = readySchema.parse(await agent.next(0));
    expect(ready.connected, agent.output()).toEqual({ success: true, detail: null });
  }, 240_000);
  afterAll(async () => {
    agent?.child.kill();
    await temp?.dispose();
  });

  it('a question naming the agent (@handle) goes to its inbox, and the answer is the Python agent’s, every step shown', async () => {
    const question = 'How many words does this question have?';
    const answer = (await client.chat.completions.create({
      model: 'llm1-agentic',
      messages: [{ role: 'user', content: `@${handle} ${question}` }],
    })) as AgenticCompletion;

    const heard = questionSchema.parse(await agent.next(1));
    expect(heard).toMatchObject({ sender: temp.stack.chatAgentAddress, text: question });
    const replied = answeredSchema.parse(await agent.next(2));
    // Both replies were taken by the chat agent's webhook (resolved through the almanac by uagents_core).
    expect(replied).toMatchObject({ acknowledged: [200], answered: [200] });
    expect(replied.text).toBe(`Mailbox agent ${ready.token} heard 7 words: ${question}`);

    const steps = answer.intermediate_steps;
    expect(kinds(steps), JSON.stringify(steps)).toEqual(['choose', 'sent', 'answered']);
    expect(steps[0]).toMatchObject({ step: 'choose', agent: { address: ready.address, handle } });
    expect(steps.find((step) => step.step === 'sent')).toMatchObject({
      text: question,
      agent: { address: ready.address },
      session: heard.session,
    });
    expect(steps.find((step) => step.step === 'answered')).toMatchObject({ text: replied.text, agent: { address: ready.address } });
    expect(answer.choices[0]!.message.content).toContain(replied.text);
    expect(answer.choices[0]!.finish_reason).toBe('stop');
    expect(agent.output()).not.toMatch(/Traceback|failed verification|Failed to delete/);
  }, 120_000);

  it('found by the chat agent’s own search (no handle), it is chosen, asked through its inbox and answers', async () => {
    const question = 'Which mailbox chat agent answers chat messages through its mailbox?';
    const answer = (await client.chat.completions.create({
      model: 'llm1-agentic',
      messages: [{ role: 'user', content: question }],
    })) as AgenticCompletion;

    expect(questionSchema.parse(await agent.next(3))).toMatchObject({ sender: temp.stack.chatAgentAddress, text: question });
    const replied = answeredSchema.parse(await agent.next(4));
    const steps = answer.intermediate_steps;
    expect(kinds(steps), JSON.stringify(steps)).toEqual(['search', 'choose', 'sent', 'answered']);
    expect(steps[1]).toMatchObject({ step: 'choose', agent: { address: ready.address } });
    expect(answer.choices[0]!.message.content).toContain(replied.text);
    expect(replied.text).toContain(ready.token);
  }, 120_000);
});
