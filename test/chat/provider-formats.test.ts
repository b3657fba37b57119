import { describe, expect, it } from 'vitest';
import type { ServedModel } from '../../workers/chat/src/config/models.ts';
import { ApiError } from '../../lib/http/api-error.ts';
import type { ProviderEvent, ProviderRequest } from '../../workers/chat/src/providers/types.ts';
import { type AiRunner, workersAiProvider } from '../../workers/chat/src/providers/workers-ai.ts';
import { sseData } from '../../workers/chat/src/providers/sse.ts';
import { translateStream } from '../../workers/chat/src/providers/stream-translator.ts';
import workersAiNative from './fixtures/workers-ai-native.sse?raw';
import workersAiOpenAi from './fixtures/workers-ai-openai.sse?raw';
import workersAiR1 from './fixtures/workers-ai-r1-native.sse?raw';
import vllmReasoning from './fixtures/vllm-reasoning.sse?raw';
import llamacppThinkOpen from './fixtures/llamacpp-think-open.sse?raw';
import ollamaThink from './fixtures/ollama-think.sse?raw';
import openAiToolCalls from './fixtures/openai-tool-calls.sse?raw';

/** The recorded bytes as a stream cut into small uneven pieces, as a network delivers them. */
function byteStream(text: string, piece = 7): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + piece + (at % 5)));
      at += piece + (at % 5);
    },
  });
}

async function collect(events: AsyncIterable<ProviderEvent>) {
  const out = {
    thought: '',
    content: '',
    finish: '',
    stopReason: null as string | number | null,
    usage: null as unknown,
    calls: [] as ProviderEvent[],
    unopened: 0,
  };
  for await (const event of events) {
    if (event.type === 'thought') out.thought += event.text;
    if (event.type === 'content') out.content += event.text;
    if (event.type === 'finish') [out.finish, out.stopReason] = [event.reason, event.stopReason];
    if (event.type === 'usage') out.usage = event;
    if (event.type === 'tool_call') out.calls.push(event);
    if (event.type === 'thought_closed_unopened') out.unopened++;
  }
  return out;
}

const model = (think: 'tags' | 'open' = 'tags'): ServedModel => ({
  alias: 'llm1',
  provider: 'workers-ai',
  model: '@cf/test/model',
  context_window: 8192,
  default_max_tokens: 256,
  think,
  agentic: false,
});

const request = (overrides: Partial<ProviderRequest> = {}): ProviderRequest => ({
  model: '@cf/test/model',
  messages: [{ role: 'user', content: 'What is the capital of France?' }],
  temperature: 1,
  max_tokens: 256,
  stop: [],
  parameters: {},
  signal: new AbortController().signal,
  ...overrides,
});

/** A stand-in for env.AI that answers with a recorded response and remembers what it was asked. */
function fakeAi(answer: () => unknown): AiRunner & { calls: { model: string; inputs: Record<string, unknown> }[] } {
  const calls: { model: string; inputs: Record<string, unknown> }[] = [];
  return {
    calls,
    async run(modelId, inputs) {
      calls.push({ model: modelId, inputs });
      return answer();
    },
  };
}

describe('Workers AI adapter on recorded streams', () => {
  it('reads the native {response} stream and its usage', async () => {
    const ai = fakeAi(() => byteStream(workersAiNative));
    const result = await collect(await workersAiProvider(model(), ai).stream(request()));
    expect(result).toMatchObject({
      content: 'The capital of France is Paris.',
      thought: '',
      finish: 'stop',
      usage: { promptTokens: 18, completionTokens: 7 },
    });
    expect(ai.calls[0]).toMatchObject({ model: '@cf/test/model', inputs: { stream: true, max_tokens: 256, temperature: 1 } });
  });

  it('splits a native R1 stream whose template opened <think> (no opening tag in the output)', async () => {
    const result = await collect(
      await workersAiProvider(
        model('open'),
        fakeAi(() => byteStream(workersAiR1)),
      ).stream(request()),
    );
    expect(result.thought).toBe('Okay, the user asks for the capital of France. That is Paris.\n');
    expect(result.content).toBe('Paris.');
  });

  it('reports an unopened </think> when the model is not configured as opening it', async () => {
    const result = await collect(
      await workersAiProvider(
        model('tags'),
        fakeAi(() => byteStream(workersAiR1)),
      ).stream(request()),
    );
    expect(result.unopened).toBe(1);
    expect(result.content).toContain('Paris.');
  });

  it('reads the OpenAI-style stream of newer models with reasoning_content', async () => {
    const result = await collect(
      await workersAiProvider(
        model(),
        fakeAi(() => byteStream(workersAiOpenAi, 3)),
      ).stream(request()),
    );
    expect(result).toMatchObject({
      thought: 'The user wants the capital of France.',
      content: 'The capital of France is **Paris**.',
      finish: 'stop',
      usage: { promptTokens: 72, completionTokens: 31 },
    });
  });

  it('asks for a complete answer when tools are given and reads native tool calls', async () => {
    const ai = fakeAi(() => ({
      response: null,
      tool_calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }],
      usage: { prompt_tokens: 40, completion_tokens: 9 },
    }));
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object' } } }];
    const result = await collect(await workersAiProvider(model(), ai).stream(request({ tools })));
    expect(ai.calls[0]!.inputs).toMatchObject({ stream: false, tools });
    expect(result.finish).toBe('tool_calls');
    expect(result.calls).toEqual([{ type: 'tool_call', index: 0, id: undefined, name: 'get_weather', arguments: '{"city":"Paris"}' }]);
  });

  it('reads a complete OpenAI-shaped answer', async () => {
    const ai = fakeAi(() => ({
      choices: [{ message: { role: 'assistant', content: 'Paris.' }, finish_reason: 'length' }],
      usage: { prompt_tokens: 5, completion_tokens: 2 },
    }));
    const result = await collect(
      await workersAiProvider(model(), ai).stream(request({ tools: [{ type: 'function', function: { name: 'noop' } }] })),
    );
    expect(result).toMatchObject({ content: 'Paris.', finish: 'length' });
  });

  it('marks a native stream that used its whole budget as cut by length', async () => {
    const result = await collect(
      await workersAiProvider(
        model(),
        fakeAi(() => byteStream(workersAiNative)),
      ).stream(request({ max_tokens: 7 })),
    );
    expect(result.finish).toBe('length');
  });

  it.each([
    ['3040: Capacity temporarily exceeded, please try again.', 429, 'capacity_exceeded'],
    ['5007: No such model @cf/nope', 422, 'model_unavailable'],
    ['3036: You have used up your daily free allocation', 429, 'upstream_rate_limited'],
    ['8001: Invalid input', 422, 'upstream_rejected'],
    ['Operation timed out', 503, 'upstream_timeout'],
  ])('maps the binding error "%s" to %i', async (message, status, code) => {
    const ai: AiRunner = { run: () => Promise.reject(new Error(message)) };
    const failure = await workersAiProvider(model(), ai)
      .stream(request())
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status, code });
  });
});

describe('OpenAI-compatible stream formats', () => {
  const translate = (fixture: string, think: 'tags' | 'open' = 'tags', maxTokens = 256) =>
    collect(translateStream(sseData(byteStream(fixture, 5), new AbortController().signal), { think, maxTokens }));

  it('vLLM: reasoning_content, content, stop_reason and the usage chunk', async () => {
    expect(await translate(vllmReasoning)).toMatchObject({
      thought: 'Two plus two is four.',
      content: '2 + 2 = 4.',
      finish: 'stop',
      stopReason: 'END',
      usage: { promptTokens: 20, completionTokens: 16 },
    });
  });

  it('llama.cpp: a bare </think> split across chunks, with the template opening the thought', async () => {
    expect(await translate(llamacppThinkOpen, 'open')).toMatchObject({
      thought: 'Okay, the user said hello. Reply briefly.\n',
      content: 'Hello! How can I help?',
      usage: { promptTokens: 11, completionTokens: 20 },
    });
  });

  it('Ollama: <think> tags in content, the opening tag split in two chunks', async () => {
    expect(await translate(ollamaThink)).toMatchObject({
      thought: '\nSimple greeting; answer politely.\n',
      content: 'Hi there!',
      finish: 'stop',
      usage: { promptTokens: 9, completionTokens: 14 },
    });
  });

  it('OpenAI: tool call deltas with the name first and arguments in pieces', async () => {
    const result = await translate(openAiToolCalls);
    expect(result.finish).toBe('tool_calls');
    expect(result.calls.map((c) => (c.type === 'tool_call' ? c.arguments : '')).join('')).toBe('{"city":"Paris"}');
    expect(result.calls[0]).toMatchObject({ index: 0, id: 'call_Q8mXh2', name: 'get_weather' });
  });

  it('a stream event that is not JSON fails the completion with a provider error', async () => {
    const failure = await translate('data: {"choices": [\n\n').catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 503, code: 'upstream_bad_stream' });
  });
});

describe('server-sent events from the upstream body (sseData)', () => {
  const datas = async (body: ReadableStream<Uint8Array>, signal = new AbortController().signal) => {
    const out: string[] = [];
    for await (const data of sseData(body, signal)) out.push(data);
    return out;
  };

  it('hands on every event of a read that carries many, in order', async () => {
    const text = Array.from({ length: 50 }, (_, i) => `data: {"n":${i}}\n\n`).join('');
    expect(await datas(byteStream(text, text.length))).toEqual(Array.from({ length: 50 }, (_, i) => `{"n":${i}}`));
  });

  it('joins multi-byte characters and events split across reads', async () => {
    const text = 'data: {"content":"héllo — 你好 🙂"}\n\n: comment\n\ndata: [DONE]\n\n';
    for (const piece of [1, 2, 3]) expect(await datas(byteStream(text, piece))).toEqual(['{"content":"héllo — 你好 🙂"}', '[DONE]']);
  });

  it('cancels the body when the reader stops early or the signal aborts', async () => {
    let cancelled = 0;
    const endless = () =>
      new ReadableStream<Uint8Array>({
        pull: (controller) => controller.enqueue(new TextEncoder().encode('data: x\n\n')),
        cancel: () => void cancelled++,
      });
    for await (const data of sseData(endless(), new AbortController().signal)) {
      expect(data).toBe('x');
      break;
    }
    const abort = new AbortController();
    let seen = 0;
    for await (const _ of sseData(endless(), abort.signal)) if (++seen === 3) abort.abort();
    expect(cancelled).toBe(2);
  });
});
