import { SELF } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectSameRefusalWhateverTheLabel, REFUSED_BODIES, withContentType, WRONG_CONTENT_TYPES } from '../support/content-types.ts';
import { createKey, LLM_BASE_URL } from './helpers.ts';

/** POST /v1/chat/completions reads its body whatever the Content-Type says (issue 13: it was ignored). */
let key: string;
beforeAll(async () => {
  key = (await createKey({ limits: { requests_per_minute: 1000, tokens_per_minute: 1_000_000 } })).key;
});

// Bytes, not a string: fetch would label a string body text/plain by itself.
const send = (body: string, contentType: string | null) =>
  SELF.fetch(`${LLM_BASE_URL}/chat/completions`, {
    method: 'POST',
    headers: withContentType(contentType, { authorization: `Bearer ${key}` }),
    body: new TextEncoder().encode(body),
  });

describe('chat: a JSON body is read whatever its Content-Type', () => {
  it.each(REFUSED_BODIES)('refuses %s the same with a wrong or missing label', async (body) => {
    await expectSameRefusalWhateverTheLabel(send, body, body);
  });

  it('refuses invalid parameters the same with a wrong or missing label', async () => {
    await expectSameRefusalWhateverTheLabel(send, JSON.stringify({ model: 'llm1', messages: [], temperature: 7 }), 'temperature 7');
    const refused = await send('{not json', null);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
  });

  it('answers a good body without the label', async () => {
    for (const contentType of [null, 'text/plain', 'application/x-www-form-urlencoded']) {
      const request = { model: 'llm1', messages: [{ role: 'user', content: 'Say hello.' }], max_tokens: 8 };
      const response = await send(JSON.stringify(request), contentType);
      expect(response.status, `Content-Type ${contentType ?? '(none)'}`).toBe(200);
      expect(await response.json()).toMatchObject({ object: 'chat.completion', model: 'llm1' });
    }
    expect(WRONG_CONTENT_TYPES.length).toBeGreaterThan(3);
  });
});
