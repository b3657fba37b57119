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

const kinds = (steps: IntermediateStep[]) => steps.map((step) => step.step);

describe('llm1-agentic through the running stack: the chat endpoint asks the specialist', () => {
  let temp: TempStack;
  let client: OpenAI;

  beforeAll(async () => {
    temp = await startTempStack({ client: false });
    const adminToken = readDevVars(secretsFiles(ROOT, `${temp.dir}/secrets`).registry).ADMIN_TOKEN!;
    const { key } = await createDevKey({
      registryUrl: temp.stack.urls.registry,
      adminToken,
      name: 'agentic e2e',
      permissions: ['chat', 'read'],
    });
    client = new OpenAI({ apiKey: key, baseURL: `${temp.stack.urls.chat}/v1`, maxRetries: 0, timeout: 90_000 });
  });
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
    expect(kinds(answer.intermediate_steps)).toEqual(['search', 'choose', 'sent', 'acknowledged', 'answered']);
    expect(answer.intermediate_steps[1]).toMatchObject({ step: 'choose', agent: { address: specialist, handle: 'financial-analyst' } });
    expect(answer.intermediate_steps[2]).toMatchObject({ step: 'sent', text: QUESTION, agent: { address: specialist } });
    expect(answer.executable_data.map((manifest) => manifest.address)).toContain(specialist);
  });

  it('the same with @handle: no search, straight to the specialist', async () => {
    const answer = await ask(`@financial-analyst ${QUESTION}`);
    expect(answer.choices[0]!.message.content).toMatch(NVIDIA_FY2024_REVENUE);
    expect(kinds(answer.intermediate_steps)).toEqual(['choose', 'sent', 'acknowledged', 'answered']);
    expect(answer.intermediate_steps[0]).toMatchObject({ agent: { address: temp.stack.specialistAddress } });
  });

  it('a follow-up in the same x-session-id reaches the same agent; with the specialist stopped it says so within the deadline', async () => {
    const session = `e2e-${crypto.randomUUID()}`;
    const first = await ask(QUESTION, session);
    expect(first.choices[0]!.message.content).toMatch(NVIDIA_FY2024_REVENUE);

    const followUp = await ask('And its revenue in fiscal 2023?', session);
    expect(kinds(followUp.intermediate_steps)).toEqual(['choose', 'sent', 'acknowledged', 'answered']);
    expect(followUp.intermediate_steps[0]).toMatchObject({ agent: { address: temp.stack.specialistAddress } });
    const sessions = [first, followUp].map((answer) => answer.intermediate_steps.find((step) => step.step === 'sent'));
    expect(sessions[0]).toMatchObject({ session: (sessions[1] as { session: string }).session });

    await temp.stack.stop('specialist');
    const started = Date.now();
    const unreachable = await ask('And in fiscal 2022?', session);
    expect(Date.now() - started).toBeLessThan(45_000);
    expect(unreachable.choices[0]!.message.content).toContain('could not be reached');
    expect(unreachable.choices[0]!.finish_reason).toBe('stop');
    expect(unreachable.intermediate_steps.at(-1)).toMatchObject({ step: 'unreachable', agent: { address: temp.stack.specialistAddress } });
  });
});
