import { beforeAll, describe, expect, it } from 'vitest';
import type { ChatCompletion } from '../../schemas/chat.ts';
import { createKey, openai, post, upstream } from './helpers.ts';

/** What libraries send beyond the basics (issue 26): null parameters, content parts, JSON mode's shapes, system prompts. */

async function complete(token: string, body: Record<string, unknown>): Promise<ChatCompletion> {
  const response = await post('/chat/completions', token, body);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as ChatCompletion;
}

const contentOf = (completion: ChatCompletion) => completion.choices[0]!.message.content ?? '';

async function errorOf(response: Response) {
  return ((await response.json()) as { error: { message: string; type: string; param: string | null; code: string | null } }).error;
}

let token: string;
beforeAll(async () => {
  token = (await createKey()).key;
});

describe('null means the default, as OpenAI takes it', () => {
  it('temperature, top_p, stream, tools, tool_choice, response_format, user and the rest as null', async () => {
    const completion = await complete(token, {
      model: 'llm1',
      messages: [{ role: 'user', content: 'echo: nulls are fine' }],
      temperature: null,
      top_p: null,
      stream: null,
      max_tokens: null,
      stop: null,
      tools: null,
      tool_choice: null,
      parallel_tool_calls: null,
      response_format: null,
      user: null,
      seed: null,
      frequency_penalty: null,
      presence_penalty: null,
    });
    expect(contentOf(completion)).toContain('nulls are fine');
  });
});

describe('content parts', () => {
  it('text parts are read as the text', async () => {
    const completion = await complete(token, {
      model: 'llm1',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'echo: ' },
            { type: 'text', text: 'two parts' },
          ],
        },
      ],
    });
    expect(contentOf(completion)).toContain('two parts');
  });

  it('an image part for a text-only model is a 400 that names the part and the model', async () => {
    const response = await post('/chat/completions', token, {
      model: 'llm1',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
        },
      ],
    });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error).toMatchObject({ param: 'messages.0.content.1', code: 'unsupported_content_part', type: 'invalid_request_error' });
    expect(error.message).toContain('image_url');
    expect(error.message).toContain('llm1');
  });

  it('a file part likewise; media in a system message is refused for every model', async () => {
    const file = await post('/chat/completions', token, {
      model: 'llm1',
      messages: [
        { role: 'user', content: [{ type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' } }] },
      ],
    });
    expect(file.status).toBe(400);
    expect((await errorOf(file)).message).toContain('file part');
    const system = await post('/chat/completions', token, {
      model: 'relay',
      messages: [
        { role: 'system', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] },
        { role: 'user', content: 'hi' },
      ],
    });
    expect(system.status).toBe(400);
    expect((await errorOf(system)).message).toContain('user messages only');
  });

  it('an image part goes to an OpenAI-compatible upstream as it came', async () => {
    const parts = [
      { type: 'text', text: 'What is in this picture?' },
      { type: 'image_url', image_url: { url: 'https://example.com/heron.png', detail: 'low' } },
    ];
    await complete(token, { model: 'relay', messages: [{ role: 'user', content: parts }] });
    const last = (await (await upstream('/last-request')).json()) as { body: { messages: { content: unknown }[] } };
    expect(last.body.messages.at(-1)!.content).toEqual(parts);
  });

  it('an unknown part type is a 400 naming the field', async () => {
    const response = await post('/chat/completions', token, {
      model: 'llm1',
      messages: [{ role: 'user', content: [{ type: 'hologram', data: 'x' }] }],
    });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).param).toMatch(/^messages\.0\.content/);
  });
});

describe('JSON mode follows the shape the messages ask for (offline engine)', () => {
  const json = (completion: ChatCompletion) => JSON.parse(contentOf(completion)) as unknown;

  it('keys named in a sentence', async () => {
    const completion = await complete(token, {
      model: 'llm1',
      response_format: { type: 'json_object' },
      messages: [
        { role: 'system', content: 'Reply in JSON with the keys "tickers" and "note".' },
        { role: 'user', content: 'Extract tickers: NVDA and AAPL' },
      ],
    });
    expect(json(completion)).toEqual({ tickers: ['NVDA', 'AAPL'], note: expect.any(String) });
  });

  it('an example object in the prompt', async () => {
    const completion = await complete(token, {
      model: 'llm1',
      response_format: { type: 'json_object' },
      messages: [
        { role: 'user', content: 'Find emails: ann@example.com, bob@example.org. Answer as json like {"emails": ["a@b.c"], "count": 0}' },
      ],
    });
    expect(json(completion)).toEqual({ emails: ['ann@example.com', 'bob@example.org'], count: 0 });
  });

  it('a JSON Schema in the prompt', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city', 'days'] };
    const completion = await complete(token, {
      model: 'llm1',
      response_format: { type: 'json_object' },
      messages: [
        { role: 'system', content: `Answer with json matching this schema: ${JSON.stringify(schema)}` },
        { role: 'user', content: 'Weather in Paris for 3 days' },
      ],
    });
    expect(json(completion)).toEqual({ city: 'Paris', days: 3 });
  });

  it('no shape asked for: the reply under `reply`', async () => {
    const completion = await complete(token, {
      model: 'llm1',
      response_format: { type: 'json_object' },
      messages: [{ role: 'user', content: 'echo: as json please' }],
    });
    expect(json(completion)).toMatchObject({ reply: 'as json please' });
  });

  it('without the word json: OpenAI’s 400, in OpenAI’s words', async () => {
    const response = await post('/chat/completions', token, {
      model: 'llm1',
      response_format: { type: 'json_object' },
      messages: [{ role: 'user', content: 'Extract tickers: NVDA' }],
    });
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({
      param: 'messages',
      type: 'invalid_request_error',
      message: "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.",
    });
  });
});

describe('the offline engine reads a system prompt as instructions, never as the subject', () => {
  const system = { role: 'system', content: 'You are a helpful assistant for MSFT and GOOG analysts. Summarise clearly.' };

  it('summarise: the user’s text after the colon, however short', async () => {
    const completion = await complete(token, {
      model: 'llm1',
      messages: [system, { role: 'user', content: 'Summarise: agents find each other here.' }],
    });
    expect(contentOf(completion)).toContain('agents find each other here.');
    expect(contentOf(completion)).not.toContain('MSFT');
  });

  it('extract: the tickers of the user’s text, none from the system prompt', async () => {
    const completion = await openai(token).chat.completions.create({
      model: 'llm1',
      messages: [
        { role: 'system', content: system.content },
        { role: 'user', content: 'Extract tickers: NVDA and AAPL' },
      ],
    });
    const text = completion.choices[0]!.message.content!;
    expect(text).toContain('- NVDA\n- AAPL');
    expect(text).not.toMatch(/MSFT|GOOG/);
  });

  it('a developer message (the SDKs’ newer name) likewise', async () => {
    const completion = await complete(token, {
      model: 'llm1',
      messages: [
        { role: 'developer', content: 'Track MSFT.' },
        { role: 'user', content: 'extract tickers: TSLA' },
      ],
    });
    expect(contentOf(completion)).toContain('- TSLA');
    expect(contentOf(completion)).not.toContain('MSFT');
  });

  it('“summarise the text above” takes the user’s earlier message, not the system prompt', async () => {
    const completion = await complete(token, {
      model: 'llm1',
      messages: [
        system,
        { role: 'user', content: 'Herons hunt at dawn in shallow water.' },
        { role: 'user', content: 'summarise the text above' },
      ],
    });
    expect(contentOf(completion)).toContain('Herons hunt at dawn');
    expect(contentOf(completion)).not.toContain('MSFT');
  });
});
