import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatCompletion, IntermediateStep } from '../../schemas/chat.ts';
import { createDevKey } from '../../scripts/dev/bootstrap-key.ts';
import { readDevVars } from '../../scripts/stack/dev-vars.ts';
import { secretsFiles } from '../../scripts/stack/secrets.ts';
import { ROOT } from '../../scripts/stack/stack.ts';
import { startTempStack, type TempStack } from './helpers/temp-stack.ts';

/** The chat completion as the SDK returns it, with the gateway's extras (steps, manifests) it passes through. */
type AgenticCompletion = OpenAI.Chat.Completions.ChatCompletion & Pick<ChatCompletion, 'intermediate_steps' | 'executable_data'>;

const QUESTION = 'What was NVIDIA’s revenue in fiscal 2024?';
/** NVIDIA's fiscal 2024 revenue in the local EDGAR data: $60,922 million, however the answer writes it. */
const NVIDIA_FY2024_REVENUE = /60[.,]9/;
/** Figures in data/edgar: NVIDIA revenue FY2023 $26,974M, net income FY2024 $29,760M; Apple net income FY2024 $93,736M. */
const NVIDIA_FY2023_REVENUE = /Revenue: \$26\.97B in FY2023/;
const NVIDIA_FY2024_NET_INCOME = /NVIDIA \(NVDA\), fiscal 2024:\n> - Net income: \$29\.76B in FY2024/;
const APPLE_FY2024_NET_INCOME = /Apple \(AAPL\), fiscal 2024:\n> - Net income: \$93\.74B in FY2024/;

/**
 * The steps' kinds, without the acknowledgement: the specialist's acknowledgement travels through its outbox queue
 * and its answer directly, so the answer may come first (then there is no acknowledged step; if there is, it comes
 * before the answer).
 */
function kinds(steps: IntermediateStep[]): string[] {
  const all = steps.map((step) => step.step);
  if (all.includes('acknowledged')) expect(all.indexOf('acknowledged')).toBeLessThan(all.indexOf('answered'));
  return all.filter((kind) => kind !== 'acknowledged');
}

describe('llm1-agentic through the running stack, with a chat-only key: the chat endpoint asks the specialist', () => {
  let temp: TempStack;
  let client: OpenAI;
  let adminToken: string;

  beforeAll(async () => {
    temp = await startTempStack({ client: false });
    adminToken = readDevVars(secretsFiles(ROOT, `${temp.dir}/secrets`).registry).ADMIN_TOKEN!;
    // What a chat user gets: `chat` and nothing else (the registry is searched by the chat agent, as itself).
    const { key } = await createDevKey({ registryUrl: temp.stack.urls.registry, adminToken, name: 'agentic e2e', permissions: ['chat'] });
    client = new OpenAI({ apiKey: key, baseURL: `${temp.stack.urls.chat}/v1`, maxRetries: 0, timeout: 90_000 });
  });

  type Turn = OpenAI.Chat.Completions.ChatCompletionMessageParam;
  const converse = async (messages: Turn[], session?: string) =>
    (await client.chat.completions.create(
      { model: 'llm1-agentic', messages },
      session ? { headers: { 'x-session-id': session } } : {},
    )) as AgenticCompletion;
  afterAll(async () => {
    await temp?.dispose();
  });

  const ask = async (content: string, session?: string) =>
    (await client.chat.completions.create(
      { model: 'llm1-agentic', messages: [{ role: 'user', content }] },
      session ? { headers: { 'x-session-id': session } } : {},
    )) as AgenticCompletion;

  it('discovers the specialist, sends it the question and answers with its figure, every step shown', async () => {
    const answer = await ask(QUESTION);
    const specialist = temp.stack.specialistAddress;
    expect(answer.choices[0]!.message.content).toMatch(NVIDIA_FY2024_REVENUE);
    expect(answer.choices[0]!.finish_reason).toBe('stop');
    expect(kinds(answer.intermediate_steps)).toEqual(['search', 'choose', 'sent', 'answered']);
    expect(answer.intermediate_steps[1]).toMatchObject({ step: 'choose', agent: { address: specialist, handle: 'financial-analyst' } });
    expect(answer.intermediate_steps[2]).toMatchObject({ step: 'sent', text: QUESTION, agent: { address: specialist } });
    expect(answer.executable_data.map((manifest) => manifest.address)).toContain(specialist);
  });

  it('streams the steps before the answer, the specialist chosen as operator-verified (the stock SDK, stream: true)', async () => {
    const stream = await client.chat.completions.create({
      model: 'llm1-agentic',
      stream: true,
      messages: [{ role: 'user', content: QUESTION }],
    });
    const steps: IntermediateStep[] = [];
    let text = '';
    for await (const chunk of stream) {
      const extra = chunk as typeof chunk & { intermediate_steps?: IntermediateStep[] };
      for (const step of extra.intermediate_steps ?? []) steps.push(step);
      const delta = chunk.choices[0]?.delta.content ?? '';
      if (delta) expect(kinds(steps)).toEqual(['search', 'choose', 'sent', 'answered']);
      text += delta;
    }
    expect(text).toMatch(NVIDIA_FY2024_REVENUE);
    expect(text).toMatch(
      /^Financial Analysis Specialist \(SEC EDGAR filings\) \(@financial-analyst\), a third-party agent verified by this platform’s operator/,
    );
    expect(steps.find((step) => step.step === 'choose')).toMatchObject({ trust: { tier: 'verified', verified: true } });
  });

  it('"And in fiscal 2023?" gets the fiscal 2023 figure, with the same x-session-id and with the history alone', async () => {
    const session = `e2e-follow-up-${crypto.randomUUID()}`;
    const first = await converse([{ role: 'user', content: QUESTION }], session);
    expect(first.choices[0]!.message.content).toMatch(NVIDIA_FY2024_REVENUE);
    const inSession = await converse([{ role: 'user', content: 'And in fiscal 2023?' }], session);
    expect(inSession.choices[0]!.message.content).toMatch(NVIDIA_FY2023_REVENUE);

    const history: Turn[] = [
      { role: 'user', content: QUESTION },
      { role: 'assistant', content: first.choices[0]!.message.content! },
      { role: 'user', content: 'And in fiscal 2023?' },
    ];
    const fromHistory = await converse(history);
    expect(fromHistory.choices[0]!.message.content).toMatch(NVIDIA_FY2023_REVENUE);
    expect(kinds(fromHistory.intermediate_steps)).toEqual(['search', 'choose', 'sent', 'answered']);
  });

  it('a three-turn conversation that switches the metric, then the company, is answered correctly (history alone)', async () => {
    const history: Turn[] = [{ role: 'user', content: QUESTION }];
    const turns = ['What about net income?', 'How does that compare with Apple?'];
    let answer = await converse(history);
    expect(answer.choices[0]!.message.content).toMatch(NVIDIA_FY2024_REVENUE);
    for (const turn of turns) {
      history.push({ role: 'assistant', content: answer.choices[0]!.message.content! }, { role: 'user', content: turn });
      answer = await converse(history);
    }
    const last = answer.choices[0]!.message.content!;
    expect(last).toMatch(NVIDIA_FY2024_NET_INCOME);
    expect(last).toMatch(APPLE_FY2024_NET_INCOME);
  });

  it('a key without `chat` is refused with 403 and a clear message', async () => {
    const { key } = await createDevKey({ registryUrl: temp.stack.urls.registry, adminToken, name: 'no chat', permissions: ['read'] });
    const refused = new OpenAI({ apiKey: key, baseURL: `${temp.stack.urls.chat}/v1`, maxRetries: 0 });
    const error = await refused.chat.completions
      .create({ model: 'llm1-agentic', messages: [{ role: 'user', content: QUESTION }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect((error as InstanceType<typeof OpenAI.PermissionDeniedError>).message).toMatch(/"chat"/);
  });

  it('the same with @handle: no search, straight to the specialist', async () => {
    const answer = await ask(`@financial-analyst ${QUESTION}`);
    expect(answer.choices[0]!.message.content).toMatch(NVIDIA_FY2024_REVENUE);
    expect(kinds(answer.intermediate_steps)).toEqual(['choose', 'sent', 'answered']);
    expect(answer.intermediate_steps[0]).toMatchObject({ agent: { address: temp.stack.specialistAddress } });
  });

  it('a follow-up in the same x-session-id reaches the same agent; with the specialist stopped it says so in seconds, not after its 10 s wait', async () => {
    const session = `e2e-${crypto.randomUUID()}`;
    const first = await ask(QUESTION, session);
    expect(first.choices[0]!.message.content).toMatch(NVIDIA_FY2024_REVENUE);

    const followUp = await ask('And its revenue in fiscal 2023?', session);
    expect(kinds(followUp.intermediate_steps)).toEqual(['choose', 'sent', 'answered']);
    expect(followUp.intermediate_steps[0]).toMatchObject({ agent: { address: temp.stack.specialistAddress } });
    const sessions = [first, followUp].map((answer) => answer.intermediate_steps.find((step) => step.step === 'sent'));
    expect(sessions[0]).toMatchObject({ session: (sessions[1] as { session: string }).session });

    await temp.stack.stop('specialist');
    const started = Date.now();
    const unreachable = await ask('And in fiscal 2022?', session);
    // A stopped agent refuses the connection: 3 attempts, not the last candidate's 10 s (decision 0214).
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(unreachable.choices[0]!.message.content).toContain('could not be reached');
    expect(unreachable.choices[0]!.finish_reason).toBe('stop');
    expect(unreachable.intermediate_steps.at(-1)).toMatchObject({ step: 'unreachable', agent: { address: temp.stack.specialistAddress } });
  });
});
