import { SELF } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { createKey, LLM_BASE_URL, post } from './helpers.ts';

let key: string;
beforeAll(async () => {
  key = (await createKey()).key;
});

const ask = (extra: Record<string, unknown> = {}) => ({ model: 'llm1', messages: [{ role: 'user', content: 'echo: hi' }], ...extra });
const promptTokens = async (response: Response) => ((await response.json()) as { usage: { prompt_tokens: number } }).usage.prompt_tokens;

describe('everything sent to the model is counted', () => {
  it('tools (names, descriptions, parameters) count as prompt tokens', async () => {
    const plain = await promptTokens(await post('/chat/completions', key, ask()));
    const tool = {
      type: 'function',
      function: {
        name: 'lookup',
        description: 'alpha beta gamma '.repeat(400),
        parameters: { type: 'object', properties: { q: { type: 'string', description: 'delta '.repeat(200) } } },
      },
    };
    const response = await post('/chat/completions', key, ask({ tools: [tool] }));
    expect(response.status).toBe(200);
    expect(await promptTokens(response)).toBeGreaterThan(plain + 1200);
  });

  it('assistant tool calls and tool results count', async () => {
    const plain = await promptTokens(await post('/chat/completions', key, ask()));
    const messages = [
      { role: 'user', content: 'echo: hi' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: JSON.stringify({ q: 'word '.repeat(300) }) } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'result '.repeat(300) },
      { role: 'user', content: 'echo: hi' },
    ];
    const response = await post('/chat/completions', key, { model: 'llm1', messages });
    expect(response.status).toBe(200);
    expect(await promptTokens(response)).toBeGreaterThan(plain + 550);
  });

  it('tools count against the context window (422)', async () => {
    const tool = { type: 'function', function: { name: 'lookup', description: 'alpha beta gamma '.repeat(100) } };
    const response = await post('/chat/completions', key, {
      model: 'llm1-tiny',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [tool],
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ error: { code: 'context_length_exceeded' } });
  });
});

describe('counting runs in linear time', () => {
  it.each([
    ['emoji', '🌱'.repeat(200_000)],
    ['letters', 'x'.repeat(400_000)],
    ['spaces', ' '.repeat(400_000)],
  ])(
    'a prompt of one long run of %s is counted at once (the BPE took minutes on it): 422 over the window',
    { timeout: 10_000 },
    async (_, run) => {
      const response = await post('/chat/completions', key, { model: 'llm1-tiny', messages: [{ role: 'user', content: run }] });
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({ error: { code: 'context_length_exceeded' } });
    },
  );
});

describe('request caps answer clear 400 and 413 errors', () => {
  it('a body over the size cap is 413 before it is read, with or without Content-Length', async () => {
    const huge = JSON.stringify(ask({ tools: [{ type: 'function', function: { name: 'x', description: 'y'.repeat(6 * 1024 * 1024) } }] }));
    const sized = await post('/chat/completions', key, huge);
    expect(sized.status).toBe(413);
    expect(await sized.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'request_too_large' } });
    const streamed = await SELF.fetch(`${LLM_BASE_URL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: new Blob([huge]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it('too many messages, too long a content, too many tools or too long a tool description: 400 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ messages: Array.from({ length: 1001 }, () => ({ role: 'user', content: 'hi' })) }, 'messages'],
      [{ messages: [{ role: 'user', content: 'x'.repeat(500_001) }] }, 'messages.0.content'],
      [{ messages: [{ role: 'user', content: [{ type: 'text', text: 'x'.repeat(500_001) }] }] }, 'messages.0.content'],
      [{ tools: Array.from({ length: 129 }, (_, i) => ({ type: 'function', function: { name: `t${i}` } })) }, 'tools'],
      [{ tools: [{ type: 'function', function: { name: 't', description: 'd'.repeat(20_001) } }] }, 'tools.0.function.description'],
    ];
    for (const [extra, param] of cases) {
      const response = await post('/chat/completions', key, ask(extra));
      expect(response.status, param).toBe(400);
      const body = (await response.json()) as { error: { param: string | null } };
      expect(body.error.param ?? '', param).toMatch(new RegExp(`^${param.replace(/\./g, '\\.')}`));
    }
  });
});
