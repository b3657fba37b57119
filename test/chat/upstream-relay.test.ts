import { beforeAll, describe, expect, it } from 'vitest';
import type { ChatCompletion } from '../../schemas/chat.ts';
import llamacppThinkOpen from './fixtures/llamacpp-think-open.sse?raw';
import ollamaThink from './fixtures/ollama-think.sse?raw';
import openAiToolCalls from './fixtures/openai-tool-calls.sse?raw';
import vllmReasoning from './fixtures/vllm-reasoning.sse?raw';
import { createKey, openai, upstream } from './helpers.ts';

let key: string;
beforeAll(async () => {
  key = (await createKey()).key;
  for (const [name, text] of Object.entries({
    vllm: vllmReasoning,
    llamacpp: llamacppThinkOpen,
    ollama: ollamaThink,
    tools: openAiToolCalls,
  })) {
    await upstream(`/fixtures/${name}`, { method: 'PUT', body: text });
  }
});

/** Streams a completion through the SDK and reassembles it. */
async function streamed(model: string, content: string) {
  const stream = await openai(key).chat.completions.create({
    model,
    messages: [{ role: 'user', content }],
    stream: true,
    stream_options: { include_usage: true },
  });
  let thought = '';
  let text = '';
  let finish: string | null = null;
  let stopReason: unknown = null;
  let usage: unknown = null;
  let args = '';
  for await (const chunk of stream) {
    const extra = chunk as unknown as { thought?: string; choices: { stop_reason?: unknown }[] };
    thought += extra.thought ?? '';
    text += chunk.choices[0]?.delta.content ?? '';
    args += chunk.choices[0]?.delta.tool_calls?.map((c) => c.function?.arguments ?? '').join('') ?? '';
    if (chunk.choices[0]?.finish_reason) [finish, stopReason] = [chunk.choices[0].finish_reason, extra.choices[0]!.stop_reason];
    if (chunk.usage) usage = chunk.usage;
  }
  return { thought, text, finish, stopReason, usage, args };
}

describe('an OpenAI-compatible upstream behind the gateway', () => {
  it('relays the upstream answer with its own usage counts and forwards the parameters and its key', async () => {
    const tools = [{ type: 'function' as const, function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }];
    const completion = await openai(key).chat.completions.create({
      model: 'relay',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hello' },
      ],
      temperature: 0.2,
      top_p: 0.9,
      max_tokens: 50,
      stop: ['END'],
      tools,
      tool_choice: 'auto',
    });
    expect(completion.choices[0]!.message.content).toBe('Hello from upstream.');
    expect(completion.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 4, total_tokens: 15 });
    expect((completion as unknown as ChatCompletion).metadata).toMatchObject({ provider: 'openai', provider_model: 'fake-model' });
    const seen = (await (await upstream('/last-request')).json()) as { body: Record<string, unknown>; authorization: string };
    expect(seen.authorization).toBe('Bearer upstream-secret');
    expect(seen.body).toMatchObject({
      model: 'fake-model',
      temperature: 0.2,
      top_p: 0.9,
      max_tokens: 50,
      stop: ['END'],
      tools,
      tool_choice: 'auto',
      stream: true,
    });
  });

  it('streams vLLM reasoning_content as thought chunks and keeps its stop_reason', async () => {
    expect(await streamed('relay', 'scenario: replay vllm')).toMatchObject({
      thought: 'Two plus two is four.',
      text: '2 + 2 = 4.',
      finish: 'stop',
      stopReason: 'END',
      usage: { prompt_tokens: 20, completion_tokens: 16, total_tokens: 36 },
    });
  });

  it('splits llama.cpp <think> output whose opening tag the template supplied', async () => {
    const result = await streamed('relay-open', 'scenario: replay llamacpp');
    expect(result.thought).toBe('Okay, the user said hello. Reply briefly.\n');
    expect(result.text).toBe('Hello! How can I help?');
  });

  it('files a bare </think> as thought in a non-streaming answer', async () => {
    const completion = await openai(key).chat.completions.create({
      model: 'relay',
      messages: [{ role: 'user', content: 'scenario: replay llamacpp' }],
    });
    const message = completion.choices[0]!.message as unknown as { content: string; reasoning_content: string };
    expect(message.reasoning_content).toBe('Okay, the user said hello. Reply briefly.\n');
    expect(message.content).toBe('Hello! How can I help?');
  });

  it('splits Ollama <think> tags, even when a tag arrives in two chunks', async () => {
    const result = await streamed('relay', 'scenario: replay ollama');
    expect(result.thought).toBe('\nSimple greeting; answer politely.\n');
    expect(result.text).toBe('Hi there!');
  });

  it('relays streamed tool calls, and assembles them for a non-streaming caller', async () => {
    const streamedCall = await streamed('relay', 'scenario: replay tools');
    expect(streamedCall).toMatchObject({ finish: 'tool_calls', args: '{"city":"Paris"}' });
    const completion = await openai(key).chat.completions.create({
      model: 'relay',
      messages: [{ role: 'user', content: 'scenario: replay tools' }],
    });
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls');
    expect(completion.choices[0]!.message.tool_calls).toEqual([
      { id: 'call_Q8mXh2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
    ]);
  });

  it('turns an upstream failure in mid-stream into an error event the SDK raises', async () => {
    const failure = await streamed('relay', 'scenario: broken-midway').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(String((failure as Error).message)).toContain('model crashed');
  });
});
