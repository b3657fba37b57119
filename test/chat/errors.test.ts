import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { createKey, openai, post } from './helpers.ts';

let key: string;
beforeAll(async () => {
  key = (await createKey()).key;
});

const hello = [{ role: 'user', content: 'hello' }];

async function errorOf(response: Response) {
  const body = (await response.json()) as { error: { message: string; type: string; param: string | null; code: string | null } };
  expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
  return body.error;
}

describe('400: invalid parameters, naming the parameter', () => {
  it.each([
    ['temperature above 2', { model: 'llm1', messages: hello, temperature: 2.5 }, 'temperature'],
    ['no messages', { model: 'llm1', messages: [] }, 'messages'],
    ['an unknown role', { model: 'llm1', messages: [{ role: 'wizard', content: 'x' }] }, 'messages.0.role'],
    ['max_tokens of 0', { model: 'llm1', messages: hello, max_tokens: 0 }, 'max_tokens'],
    ['stream not a boolean', { model: 'llm1', messages: hello, stream: 'yes' }, 'stream'],
    ['top_p above 1', { model: 'llm1', messages: hello, top_p: 1.5 }, 'top_p'],
    [
      'a tool message answering no call',
      { model: 'llm1', messages: [...hello, { role: 'tool', tool_call_id: 'call_x', content: '1' }] },
      'messages.1.tool_call_id',
    ],
    [
      'tool_choice naming a missing tool',
      {
        model: 'llm1',
        messages: hello,
        tools: [{ type: 'function', function: { name: 'a' } }],
        tool_choice: { type: 'function', function: { name: 'b' } },
      },
      'tool_choice',
    ],
    ['agent_discovery limit of 50', { model: 'llm1', messages: hello, agent_discovery: { limit: 50 } }, 'agent_discovery.limit'],
  ])('%s', async (_what, body, param) => {
    const response = await post('/chat/completions', key, body);
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ type: 'invalid_request_error', param });
  });

  it.each([
    [
      'five stop sequences',
      { model: 'llm1', messages: hello, stop: ['a', 'b', 'c', 'd', 'e'] },
      'stop',
      'stop: Too big: expected array to have <=4 items',
    ],
    [
      'content that is a number',
      { model: 'llm1', messages: [{ role: 'user', content: 5 }] },
      'messages.0.content',
      'messages.0.content: Invalid input: expected string or array',
    ],
    [
      'a content part without its text',
      { model: 'llm1', messages: [{ role: 'user', content: [{ type: 'text' }] }] },
      'messages.0.content.0.text',
      'messages.0.content.0.text: Invalid input: expected string, received undefined',
    ],
  ])('a field that takes one of several forms says what is wrong, never only "Invalid input": %s', async (_what, body, param, message) => {
    const response = await post('/chat/completions', key, body);
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toEqual({ type: 'invalid_request_error', param, code: 'invalid_parameter', message });
  });

  it('an unknown model names the served ones', async () => {
    const response = await post('/chat/completions', key, { model: 'gpt-9', messages: hello });
    expect(response.status).toBe(404);
    const error = await errorOf(response);
    expect(error).toMatchObject({ param: 'model', code: 'model_not_found' });
    expect(error.message).toContain('llm1-mini');
  });

  it('a body that is not JSON', async () => {
    const response = await post('/chat/completions', key, '{"model": "llm1",');
    expect(response.status).toBe(400);
    expect((await errorOf(response)).type).toBe('invalid_request_error');
  });

  it('reaches the SDK as BadRequestError', async () => {
    const failure = await openai(key)
      .chat.completions.create({ model: 'llm1', messages: [{ role: 'user', content: 'x' }], temperature: 3 })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
    expect(failure).toMatchObject({ status: 400, param: 'temperature' });
  });
});

describe('401 and 403: keys', () => {
  it('refuses a request without a key', async () => {
    const response = await post('/chat/completions', null, { model: 'llm1', messages: hello });
    expect(response.status).toBe(401);
    expect(await errorOf(response)).toMatchObject({ type: 'authentication_error', code: 'missing_api_key' });
  });

  it('refuses an unknown key, through the SDK as AuthenticationError', async () => {
    const failure = await openai('rk_not-a-real-key')
      .chat.completions.create({ model: 'llm1', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(failure).toMatchObject({ status: 401, code: 'invalid_api_key' });
  });

  it('refuses a valid key without the chat permission with 403', async () => {
    const readOnly = await createKey({ permissions: ['read'] });
    const response = await post('/chat/completions', readOnly.key, { model: 'llm1', messages: hello });
    expect(response.status).toBe(403);
    expect(await errorOf(response)).toMatchObject({ type: 'permission_error', code: 'insufficient_permission' });
  });
});

describe('422: valid but unprocessable', () => {
  it('a prompt larger than the context window', async () => {
    const response = await post('/chat/completions', key, {
      model: 'llm1-tiny',
      messages: [{ role: 'user', content: 'word '.repeat(200) }],
    });
    expect(response.status).toBe(422);
    expect(await errorOf(response)).toMatchObject({ code: 'context_length_exceeded', param: 'messages' });
  });

  it('max_tokens that cannot fit beside the prompt', async () => {
    const response = await post('/chat/completions', key, { model: 'llm1-tiny', messages: hello, max_tokens: 60 });
    expect(response.status).toBe(422);
    expect(await errorOf(response)).toMatchObject({ code: 'context_length_exceeded', param: 'max_tokens' });
  });

  it('a model whose provider is not configured here (Workers AI without the AI binding)', async () => {
    const failure = await openai(key)
      .chat.completions.create({ model: 'llm1-edge', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OpenAI.UnprocessableEntityError);
    expect(failure).toMatchObject({ status: 422, code: 'model_unavailable' });
  });

  it('a model the upstream does not have', async () => {
    const response = await post('/chat/completions', key, { model: 'relay', messages: [{ role: 'user', content: 'scenario: no-model' }] });
    expect(response.status).toBe(422);
    expect(await errorOf(response)).toMatchObject({ code: 'model_unavailable' });
  });
});

describe('upstream failures map to the API statuses', () => {
  it('429 from the upstream keeps its retry-after', async () => {
    const response = await post('/chat/completions', key, {
      model: 'relay',
      messages: [{ role: 'user', content: 'scenario: rate-limited' }],
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(await errorOf(response)).toMatchObject({ type: 'rate_limit_error', code: 'upstream_rate_limited' });
  });

  it('503 from the upstream is an overloaded 503 with retry-after', async () => {
    const response = await post('/chat/completions', key, {
      model: 'relay',
      messages: [{ role: 'user', content: 'scenario: overloaded' }],
      stream: true,
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await errorOf(response)).toMatchObject({ type: 'server_error', code: 'upstream_overloaded' });
  });

  it('500 when the upstream refuses the gateway’s own key (not the caller’s fault)', async () => {
    const failure = await openai(key)
      .chat.completions.create({ model: 'relay', messages: [{ role: 'user', content: 'scenario: bad-key' }] })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OpenAI.InternalServerError);
    expect(failure).toMatchObject({ status: 500, code: 'upstream_auth_failed' });
  });

  it.each([
    ['no-model', 'does not exist'],
    ['rate-limited', 'Too many requests'],
    ['overloaded', 'Service unavailable'],
  ])(
    'does not pass the upstream’s error text to the caller (%s): a stable message, the detail in the log',
    async (scenario, upstreamText) => {
      const response = await post('/chat/completions', key, {
        model: 'relay',
        messages: [{ role: 'user', content: `scenario: ${scenario}` }],
      });
      expect(response.status).toBeGreaterThanOrEqual(400);
      const { message } = await errorOf(response);
      expect(message).not.toContain(upstreamText);
      expect(message).not.toContain('upstream.test');
    },
  );
});
