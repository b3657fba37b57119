import { SELF } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { createKey, LLM_BASE_URL, openai, post } from './helpers.ts';

/**
 * OpenAI answers every request with `x-request-id`; its SDKs show it as `_request_id` (and `request_id` on raw
 * responses), the id a user quotes when reporting a problem. The spec is silent, so OpenAI's API is the reference.
 */
const REQUEST_ID = /^req_[0-9a-f]{32}$/;

let token: string;
beforeAll(async () => {
  token = (await createKey()).key;
});

const ask = { model: 'llm1', messages: [{ role: 'user' as const, content: 'echo: which request was this?' }] };

describe('x-request-id', () => {
  it('is on answers, streams and errors alike, new for each request', async () => {
    const answers = [
      await post('/chat/completions', token, ask),
      await post('/chat/completions', token, { ...ask, stream: true }),
      await post('/chat/completions', token, { ...ask, model: 'no-such-model' }),
      await post('/chat/completions', null, ask),
      await post('/chat/completions', token, '{not json'),
      await SELF.fetch(`${LLM_BASE_URL}/models`, { headers: { authorization: `Bearer ${token}` } }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 404, 401, 400, 200]);
    const ids = answers.map((answer) => answer.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(REQUEST_ID);
    expect(new Set(ids).size).toBe(ids.length);
    await Promise.all(answers.map((answer) => answer.body?.cancel()));
  });

  it('is what the official SDK reports as the request id, and a browser may read it', async () => {
    const { data, request_id } = await openai(token).chat.completions.create(ask).withResponse();
    expect(data.object).toBe('chat.completion');
    expect(request_id).toMatch(REQUEST_ID);
    const fromPage = await SELF.fetch(`${LLM_BASE_URL}/chat/completions`, {
      method: 'POST',
      headers: { origin: 'http://localhost:5174', authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(ask),
    });
    expect(fromPage.headers.get('access-control-expose-headers')?.split(',')).toContain('x-request-id');
  });
});
