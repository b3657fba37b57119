import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/http/api-error.ts';
import { ChatCompletionRequest } from '../../schemas/chat.ts';
import { admitParameters } from '../../workers/chat/src/completion/parameters.ts';
import type { ServedModel } from '../../workers/chat/src/config/models.ts';
import type { ProviderEvent, ProviderRequest } from '../../workers/chat/src/providers/types.ts';
import { type AiRunner, workersAiProvider } from '../../workers/chat/src/providers/workers-ai.ts';

/**
 * OpenAI parameters on Workers AI. The test stack has no AI binding (it is always remote), so the adapter is
 * driven with a stand-in binding, and the admission of parameters is checked on the model it would serve.
 */

const edge: ServedModel = {
  alias: 'llm1-edge',
  provider: 'workers-ai',
  model: '@cf/test/model',
  context_window: 8192,
  default_max_tokens: 256,
  think: 'tags',
  agentic: false,
};

function fakeAi(answer: unknown): AiRunner & { inputs: Record<string, unknown>[] } {
  const inputs: Record<string, unknown>[] = [];
  return {
    inputs,
    async run(_model, given) {
      inputs.push(given);
      return answer;
    },
  };
}

const request = (overrides: Partial<ProviderRequest> = {}): ProviderRequest => ({
  model: '@cf/test/model',
  messages: [{ role: 'user', content: 'Tell me about India, as JSON.' }],
  temperature: 1,
  max_tokens: 256,
  stop: [],
  parameters: {},
  signal: new AbortController().signal,
  ...overrides,
});

async function events(stream: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const all: ProviderEvent[] = [];
  for await (const event of stream) all.push(event);
  return all;
}

const admit = (body: Record<string, unknown>) =>
  admitParameters(ChatCompletionRequest.parse({ model: 'llm1-edge', messages: [{ role: 'user', content: 'hi json' }], ...body }), edge);

describe('Workers AI: parameters passed to the binding', () => {
  it('passes seed and the penalties', async () => {
    const ai = fakeAi({ response: 'ok' });
    await events(
      await workersAiProvider(edge, ai).stream(request({ parameters: { seed: 5, frequency_penalty: 0.4, presence_penalty: 0.1 } })),
    );
    expect(ai.inputs[0]).toMatchObject({ seed: 5, frequency_penalty: 0.4, presence_penalty: 0.1 });
  });

  it("json_schema becomes Workers AI's JSON Mode (the schema itself), asked for whole since JSON Mode does not stream", async () => {
    const schema = { type: 'object', properties: { capital: { type: 'string' } }, required: ['capital'] };
    const ai = fakeAi({ response: { capital: 'New Delhi' } });
    const out = await events(
      await workersAiProvider(edge, ai).stream(
        request({ parameters: { response_format: { type: 'json_schema', json_schema: { name: 'country', schema } } } }),
      ),
    );
    expect(ai.inputs[0]).toMatchObject({ stream: false, response_format: { type: 'json_schema', json_schema: schema } });
    const text = out.flatMap((e) => (e.type === 'content' ? [e.text] : [])).join('');
    expect(JSON.parse(text)).toEqual({ capital: 'New Delhi' });
  });

  it('json_object asks Workers AI for the shape the messages describe, and stays JSON Mode when they describe none', async () => {
    const ai = fakeAi({ response: { tickers: ['NVDA'] } });
    const messages = [
      { role: 'system' as const, content: 'Reply in JSON with the key "tickers".' },
      { role: 'user' as const, content: 'Extract tickers: NVDA' },
    ];
    await events(await workersAiProvider(edge, ai).stream(request({ messages, parameters: { response_format: { type: 'json_object' } } })));
    expect(ai.inputs[0]).toMatchObject({
      response_format: {
        type: 'json_schema',
        json_schema: { type: 'object', properties: { tickers: { type: 'array', items: { type: 'string' } } } },
      },
    });
    await events(await workersAiProvider(edge, ai).stream(request({ parameters: { response_format: { type: 'json_object' } } })));
    expect(ai.inputs[1]).toMatchObject({ response_format: { type: 'json_object' } });
  });

  it('parallel_tool_calls false keeps the first tool call only', async () => {
    const ai = fakeAi({
      response: null,
      tool_calls: [
        { name: 'a', arguments: {} },
        { name: 'b', arguments: {} },
      ],
    });
    const tools = [
      { type: 'function' as const, function: { name: 'a' } },
      { type: 'function' as const, function: { name: 'b' } },
    ];
    const out = await events(await workersAiProvider(edge, ai).stream(request({ tools, parameters: { parallel_tool_calls: false } })));
    expect(out.filter((e) => e.type === 'tool_call').map((e) => (e as { name: string }).name)).toEqual(['a']);
  });

  it('tool_choice "none" sends no tools, so none can be called', async () => {
    const ai = fakeAi({ response: 'no tools' });
    await events(
      await workersAiProvider(edge, ai).stream(request({ tools: [{ type: 'function', function: { name: 'a' } }], tool_choice: 'none' })),
    );
    expect(ai.inputs[0]).not.toHaveProperty('tools');
    expect(ai.inputs[0]).toMatchObject({ stream: true });
  });
});

describe('Workers AI: what it cannot honour is refused, naming the parameter', () => {
  it.each([
    ['stop', { stop: ['END'] }],
    ['tool_choice', { tools: [{ type: 'function', function: { name: 'a' } }], tool_choice: 'required' }],
    ['logit_bias', { logit_bias: { '11': 2 } }],
    ['reasoning_effort', { reasoning_effort: 'high' }],
    ['prompt_cache_key', { prompt_cache_key: 'k' }],
  ])('%s', (param, body) => {
    let failure: unknown;
    try {
      admit(body);
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 400, param, code: 'unsupported_parameter' });
  });

  it('admits and returns what it honours', () => {
    expect(admit({ seed: 3, frequency_penalty: 0.2, response_format: { type: 'json_object' }, user: 'u' })).toEqual({
      seed: 3,
      frequency_penalty: 0.2,
      response_format: { type: 'json_object' },
      user: 'u',
    });
  });
});
