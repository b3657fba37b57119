import type OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { createKey, openai } from './helpers.ts';

const LABEL = '[offline engine: deterministic rules, not a language model]';
let client: OpenAI;
beforeAll(async () => {
  client = openai((await createKey()).key);
});

const say = (content: string, extra: Partial<OpenAI.ChatCompletionCreateParamsNonStreaming> = {}) =>
  client.chat.completions.create({ model: 'llm1', messages: [{ role: 'user', content }], ...extra });

const weatherTool: OpenAI.ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

describe('the offline engine', () => {
  it('labels every reply and answers the same request the same way whatever the temperature', async () => {
    const a = await say('summarise: The cat sat. The cat ran far away. Dogs bark.', { temperature: 0 });
    const b = await say('summarise: The cat sat. The cat ran far away. Dogs bark.', { temperature: 2 });
    expect(a.choices[0]!.message.content).toBe(b.choices[0]!.message.content);
    expect(a.choices[0]!.message.content!.startsWith(`${LABEL}\n`)).toBe(true);
  });

  it('summarises by keeping the sentences whose words recur most', async () => {
    const text =
      'Rendezvous lets agents find each other. The weather was nice on Tuesday. Agents register a webhook so other agents can find them. Lunch was pasta. Search ranks agents by their README.';
    const reply = await say(`summarise: ${text}`);
    expect(reply.choices[0]!.message.content).toBe(
      `${LABEL}\nRendezvous lets agents find each other. Agents register a webhook so other agents can find them.`,
    );
    expect((reply.choices[0]!.message as unknown as { reasoning_content: string }).reasoning_content).toContain('5 sentence(s)');
  });

  it('summarises text the user gave earlier in the conversation (a system prompt is instructions, not text)', async () => {
    const reply = await client.chat.completions.create({
      model: 'llm1',
      messages: [
        { role: 'system', content: 'You are a helpful assistant.' },
        { role: 'user', content: 'The office moved. Revenue rose. Services revenue rose.' },
        { role: 'user', content: 'summarise' },
      ],
    });
    expect(reply.choices[0]!.message.content).toBe(`${LABEL}\nRevenue rose.`);
  });

  it('extracts what it is asked for', async () => {
    const reply = await say('extract emails: write to ana@example.com or bob@test.org, not to @nobody');
    expect(reply.choices[0]!.message.content).toBe(`${LABEL}\n- ana@example.com\n- bob@test.org`);
  });

  it('says what it is and what it can do when it does not recognise an instruction', async () => {
    const content = (await say('What is the meaning of life?')).choices[0]!.message.content!;
    expect(content).toContain('I do not understand free text');
    expect(content).toContain('summarise');
  });

  it('honours max_tokens with finish_reason length and counts exactly that many tokens', async () => {
    const reply = await say(`echo: ${'many words here '.repeat(40)}`, { max_tokens: 30 });
    expect(reply.choices[0]!.finish_reason).toBe('length');
    expect(reply.usage!.completion_tokens).toBe(30);
  });

  it('stops at a stop sequence and names it in stop_reason', async () => {
    const reply = await say('echo: alpha beta STOP gamma', { stop: ['STOP'] });
    expect(reply.choices[0]!.message.content).toBe(`${LABEL}\nalpha beta `);
    expect(reply.choices[0]).toMatchObject({ finish_reason: 'stop', stop_reason: 'STOP' });
  });

  it('calls a tool that obviously applies, with arguments taken from the message', async () => {
    const reply = await say('What is the weather in Paris right now?', { tools: [weatherTool] });
    const choice = reply.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.tool_calls).toEqual([
      {
        id: expect.stringMatching(/^call_offline_[0-9a-f]{8}$/),
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
      },
    ]);
  });

  it('does not call a tool that does not apply, nor when tool_choice is none', async () => {
    expect((await say('echo: hello', { tools: [weatherTool] })).choices[0]!.finish_reason).toBe('stop');
    expect(
      (await say('What is the weather in Paris?', { tools: [weatherTool], tool_choice: 'none' })).choices[0]!.message.tool_calls,
    ).toBeNull();
  });

  it('streams a tool call and then relays the tool’s result on the next turn', async () => {
    const stream = await client.chat.completions.create({
      model: 'llm1',
      messages: [{ role: 'user', content: 'weather in Oslo please' }],
      tools: [weatherTool],
      stream: true,
    });
    const calls: OpenAI.ChatCompletionChunk.Choice.Delta.ToolCall[] = [];
    let finish: string | null = null;
    for await (const chunk of stream) {
      calls.push(...(chunk.choices[0]?.delta.tool_calls ?? []));
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(finish).toBe('tool_calls');
    expect(calls[0]!.function).toEqual({ name: 'get_weather', arguments: '{"city":"Oslo"}' });

    const followUp = await client.chat.completions.create({
      model: 'llm1',
      messages: [
        { role: 'user', content: 'weather in Oslo please' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: calls[0]!.id!, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
        },
        { role: 'tool', tool_call_id: calls[0]!.id!, content: '4°C, light snow' },
      ],
      tools: [weatherTool],
    });
    expect(followUp.choices[0]!.message.content).toBe(`${LABEL}\nTool get_weather returned:\n4°C, light snow`);
  });
});
