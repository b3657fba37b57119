import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { analysisResultMessageSchema, type AnalysisItem } from '../../schemas/messages.ts';
import { requestEnvelope, send } from './helpers/envelopes.ts';
import { chatCompletion, installFakeNetwork, type ChatCall, type FakeNetwork } from './helpers/fake-network.ts';

let network: FakeNetwork;
beforeEach(() => {
  network = installFakeNetwork();
});
afterEach(() => {
  vi.restoreAllMocks();
});

async function ask(question: string): Promise<AnalysisItem[]> {
  const envelope = requestEnvelope({ request: question });
  expect((await send(envelope)).status).toBe(200);
  await vi.waitFor(() => expect(network.delivered.some((d) => d.envelope.session === envelope.session)).toBe(true), { timeout: 15_000 });
  return analysisResultMessageSchema.parse(network.delivered.find((d) => d.envelope.session === envelope.session)!.payload).analysis_result
    .analysis;
}

const draftOf = (call: ChatCall) => call.body.messages.at(-1)!.content.split('Draft answer:\n')[1]!;
const planningCalls = () => network.chatCalls.filter((call) => call.body.tools?.length);
const answer = (items: AnalysisItem[]) => items.find((item) => item.role === 'answer')!.content;

describe('the supervisor and the chat model', () => {
  it('lets the model name the company the rules could not find (tool calling), checked against the ticker map', async () => {
    network.chat = (call) =>
      call.body.tools?.length
        ? chatCompletion({
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'analyze_filings', arguments: '{"ticker":"AAPL","metrics":["revenue"]}' },
              },
            ],
          })
        : chatCompletion({ content: 'no' });
    const items = await ask('What did the iPhone maker sell in its latest fiscal year?');
    expect(items[0]!.content).toContain('Companies: Apple Inc. (AAPL).');
    expect(items[0]!.content).toContain('The language model identified the company AAPL and the figures revenue.');
    expect(answer(items)).toContain('Revenue: $391.04B in FY2024 (+2.0%).');
    const [planning] = planningCalls();
    expect(planning!.body.tools!.map((tool) => tool.function.name)).toEqual(['analyze_filings']);
    expect(planning!.body.model).toBe('llm1');
    expect(planning!.authorization).toBe('Bearer test-chat-key');
  });

  it('ignores tool calls that name no known company or figure', async () => {
    network.chat = () =>
      chatCompletion({
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'analyze_filings', arguments: '{"ticker":"ZZZZ","metrics":["vibes"]}' } },
        ],
      });
    const items = await ask('What did the iPhone maker sell?');
    expect(items[0]!.content).toContain('Companies: none recognised.');
    expect(items[0]!.content).toContain('(none named; the usual set)');
  });

  it('does not ask the model to plan when the rules found everything', async () => {
    await ask('What was Apple revenue in fiscal 2023?');
    expect(planningCalls()).toHaveLength(0);
  });

  it('takes the model’s wording of the answer when it keeps every figure', async () => {
    network.chat = (call) => chatCompletion({ content: `In short: ${draftOf(call).replace(/\n- /g, ' ')}` });
    const items = await ask("How did Apple's revenue change over the last three fiscal years?");
    expect(answer(items)).toMatch(/^In short: Apple \(AAPL\), fiscal 2022 to fiscal 2024: Revenue: \$394\.33B in FY2022/);
    expect(answer(items)).toContain('Source: SEC EDGAR XBRL company facts');
  });

  it('keeps its own answer when the model changes a figure', async () => {
    network.chat = (call) => chatCompletion({ content: draftOf(call).replace('$391.04B', '$400.00B') });
    const text = answer(await ask("How did Apple's revenue change over the last three fiscal years?"));
    expect(text).toContain('$391.04B in FY2024');
    expect(text).not.toContain('$400.00B');
  });

  it('answers from the rules when the chat Worker fails', async () => {
    network.chat = () => Response.json({ error: { message: 'down', type: 'server_error', param: null, code: null } }, { status: 500 });
    const items = await ask('the iPhone maker');
    expect(items.map((item) => item.role)).toEqual(['plan', 'search', 'answer']);
    const text = answer(await ask('How did NVIDIA revenue change over the last two fiscal years?'));
    expect(text).toContain('Revenue: $60.92B in FY2024 (+125.9%), $130.50B in FY2025 (+114.2%)');
  });
});
