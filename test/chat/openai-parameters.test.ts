import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatCompletionChunk } from '../../schemas/chat.ts';
import { createKey, openai, upstream } from './helpers.ts';

/** OpenAI's chat completion parameters through the official SDK: each honoured, or refused with a 400 naming it. */

let key: string;
beforeAll(async () => {
  key = (await createKey()).key;
});

type Params = ChatCompletionCreateParamsNonStreaming;
const ask = (content: string, extra: Partial<Params> = {}, model = 'llm1') =>
  openai(key).chat.completions.create({ model, messages: [{ role: 'user', content }], ...extra } as Params);

async function refusal(extra: Record<string, unknown>, model = 'llm1', content = 'echo: hi json') {
  const failure = await ask(content, extra as Partial<Params>, model).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
  return failure as InstanceType<typeof OpenAI.BadRequestError>;
}

describe('unknown parameters', () => {
  it('are refused as OpenAI refuses them, naming the parameter', async () => {
    const failure = await refusal({ temprature: 0.5 });
    expect(failure).toMatchObject({ status: 400, param: 'temprature', type: 'invalid_request_error' });
    expect(failure.message).toContain('Unrecognized request argument');
  });

  it('inside stream_options too', async () => {
    const failure = await openai(key)
      .chat.completions.create({
        model: 'llm1',
        messages: [{ role: 'user', content: 'echo: hi' }],
        stream: true,
        stream_options: { include_usage: true, include_cost: true } as never,
      })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 400, param: 'stream_options.include_cost' });
  });
});

describe('stream_options.include_usage (OpenAI: the usage chunk only when asked)', () => {
  async function chunks(streamOptions?: { include_usage: boolean }) {
    const stream = await openai(key).chat.completions.create({
      model: 'llm1',
      messages: [{ role: 'user', content: 'echo: count my tokens' }],
      stream: true,
      ...(streamOptions ? { stream_options: streamOptions } : {}),
    });
    const all: ChatCompletionChunk[] = [];
    for await (const chunk of stream) all.push(ChatCompletionChunk.parse(chunk));
    return all;
  }

  it('sends no usage without it', async () => {
    const all = await chunks();
    expect(all.every((chunk) => chunk.usage === undefined)).toBe(true);
    expect(all.at(-1)!.choices[0]!.finish_reason).toBe('stop');
  });

  it('sends no usage when include_usage is false', async () => {
    expect((await chunks({ include_usage: false })).some((chunk) => chunk.usage != null)).toBe(false);
  });

  it('with it: usage null on every chunk, then a last chunk with empty choices and the counts', async () => {
    const all = await chunks({ include_usage: true });
    const last = all.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage!.total_tokens).toBe(last.usage!.prompt_tokens + last.usage!.completion_tokens);
    expect(last.usage!.completion_tokens).toBeGreaterThan(3);
    expect(all.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
  });

  it('is refused without stream, as OpenAI refuses it', async () => {
    const failure = await refusal({ stream_options: { include_usage: true } });
    expect(failure).toMatchObject({ param: 'stream_options' });
  });
});

describe('response_format on the offline engine', () => {
  it('json_object: the reply is a JSON object', async () => {
    const completion = await ask('echo: reply in JSON please', { response_format: { type: 'json_object' } });
    const body = JSON.parse(completion.choices[0]!.message.content!) as { engine: string; reply: string };
    expect(body.reply).toBe('reply in JSON please');
    expect(body.engine).toContain('offline engine');
  });

  it('json_object needs the word JSON in the messages, as OpenAI requires', async () => {
    const failure = await refusal({ response_format: { type: 'json_object' } }, 'llm1', 'echo: hi');
    expect(failure).toMatchObject({ param: 'messages' });
  });

  it('json_schema: the reply matches the schema, filled from the message', async () => {
    const schema = {
      type: 'object',
      properties: {
        ticker: { type: 'string' },
        revenue: { type: 'number', minimum: 0 },
        direction: { type: 'string', enum: ['down', 'up'] },
        summary: { type: 'string', maxLength: 200 },
        tags: { type: 'array', items: { $ref: '#/$defs/tag' }, minItems: 2 },
        audited: { type: ['boolean', 'null'] },
      },
      required: ['ticker', 'revenue', 'direction', 'summary', 'tags', 'audited'],
      additionalProperties: false,
      $defs: { tag: { type: 'string', minLength: 3 } },
    };
    const completion = await ask('summarise: NVIDIA (NVDA) revenue went up to 60922 million. Margins grew.', {
      response_format: { type: 'json_schema', json_schema: { name: 'filing', strict: true, schema } },
    });
    const value: unknown = JSON.parse(completion.choices[0]!.message.content!);
    expect(z.fromJSONSchema(schema as never).safeParse(value).success).toBe(true);
    expect(value).toMatchObject({ ticker: 'NVDA', revenue: 60922, direction: 'up' });
    expect((value as { tags: string[] }).tags).toHaveLength(2);
  });

  it('json_schema with a regular expression is refused, naming the schema', async () => {
    const schema = { type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } }, required: ['code'] };
    const failure = await refusal({ response_format: { type: 'json_schema', json_schema: { name: 'x', schema } } });
    expect(failure).toMatchObject({ param: 'response_format.json_schema.schema', code: 'unsupported_schema' });
  });

  it('a malformed response_format is refused, naming the field', async () => {
    const failure = await refusal({ response_format: { type: 'yaml' } });
    expect(failure.param).toMatch(/^response_format/);
  });
});

describe('max_completion_tokens (OpenAI’s name for max_tokens)', () => {
  it('bounds the completion', async () => {
    const completion = await ask('echo: one two three four five six seven eight nine ten', { max_completion_tokens: 3 });
    expect(completion.choices[0]!.finish_reason).toBe('length');
    expect(completion.usage!.completion_tokens).toBe(3);
  });

  it('is named when it cannot fit the context window', async () => {
    const failure = await ask('echo: hi', { max_completion_tokens: 1000 }, 'llm1-tiny').catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 422, param: 'max_completion_tokens', code: 'context_length_exceeded' });
  });
});

describe('sampling parameters on the offline engine', () => {
  it('seed: the same seed gives the same reply (the engine is deterministic whatever the seed)', async () => {
    const a = await ask('summarise: The cat sat. The cat ran far away. Dogs bark.', { seed: 7 });
    const b = await ask('summarise: The cat sat. The cat ran far away. Dogs bark.', { seed: 7 });
    expect(a.choices[0]!.message.content).toBe(b.choices[0]!.message.content);
  });

  it.each([
    ['frequency_penalty', { frequency_penalty: 0.5 }],
    ['presence_penalty', { presence_penalty: -1 }],
    ['logit_bias', { logit_bias: { '1234': 5 } }],
    ['reasoning_effort', { reasoning_effort: 'low' }],
    ['verbosity', { verbosity: 'high' }],
    ['prompt_cache_key', { prompt_cache_key: 'k1' }],
  ])('%s that would change the reply is refused, naming it', async (param, extra) => {
    const failure = await refusal(extra);
    expect(failure).toMatchObject({ status: 400, param, code: 'unsupported_parameter' });
    expect(failure.message).toContain('offline');
  });

  it('neutral values ask for nothing and are accepted', async () => {
    const completion = await ask('echo: neutral', {
      frequency_penalty: 0,
      presence_penalty: 0,
      logit_bias: {},
      logprobs: false,
      n: 1,
      service_tier: 'auto',
      store: false,
      modalities: ['text'],
      response_format: { type: 'text' },
      user: 'user-42',
      safety_identifier: 'hashed-user-42',
    });
    expect(completion.choices).toHaveLength(1);
    expect(completion.choices[0]!.message.content).toContain('neutral');
    expect(completion.service_tier).toBe('default');
  });
});

describe('parameters no provider here honours', () => {
  it.each([
    ['n', { n: 2 }],
    ['logprobs', { logprobs: true }],
    ['top_logprobs', { top_logprobs: 3 }],
    ['store', { store: true }],
    ['metadata', { metadata: { team: 'a' } }],
    ['service_tier', { service_tier: 'flex' }],
    ['modalities', { modalities: ['text', 'audio'] }],
    ['audio', { audio: { voice: 'alloy', format: 'mp3' } }],
    ['prediction', { prediction: { type: 'content', content: 'x' } }],
    ['web_search_options', { web_search_options: {} }],
    ['functions', { functions: [{ name: 'f', parameters: {} }] }],
    ['function_call', { function_call: 'auto' }],
  ])('%s is refused with a 400 naming it', async (param, extra) => {
    expect(await refusal(extra)).toMatchObject({ status: 400, param });
    expect(await refusal(extra, 'relay')).toMatchObject({ status: 400, param });
  });
});

describe('an agentic completion (llm1-agentic) answers with an agent’s reply', () => {
  it.each([
    ['response_format', { response_format: { type: 'json_object' } }],
    ['seed', { seed: 1 }],
  ])('so %s, which would shape a model’s output, is refused, naming it', async (param, extra) => {
    expect(await refusal(extra, 'llm1-agentic')).toMatchObject({ status: 400, param, code: 'unsupported_parameter' });
  });
});

describe('an OpenAI-compatible upstream gets the parameters it honours', () => {
  it('passes seed, penalties, logit_bias, response_format, user, parallel_tool_calls and the rest as sent', async () => {
    const passed = {
      seed: 11,
      frequency_penalty: 0.3,
      presence_penalty: -0.2,
      logit_bias: { '50256': -100 },
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' } } },
      user: 'end-user-1',
      safety_identifier: 'sid-1',
      prompt_cache_key: 'cache-1',
      reasoning_effort: 'low',
      verbosity: 'low',
      parallel_tool_calls: false,
    };
    const tools = [{ type: 'function' as const, function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }];
    await ask('hello', { ...(passed as Partial<Params>), tools }, 'relay');
    const sent = (await (await upstream('/last-request')).json()) as { body: Record<string, unknown> };
    expect(sent.body).toMatchObject(passed);
  });

  it('leaves neutral values out and sends parallel_tool_calls only with tools', async () => {
    await ask('hello', { frequency_penalty: 0, logit_bias: {}, parallel_tool_calls: false, service_tier: 'default' }, 'relay');
    const sent = (await (await upstream('/last-request')).json()) as { body: Record<string, unknown> };
    for (const name of ['frequency_penalty', 'logit_bias', 'parallel_tool_calls', 'service_tier'])
      expect(sent.body).not.toHaveProperty(name);
  });
});
