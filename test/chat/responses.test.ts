import { SELF } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ResponseObject } from '../../schemas/responses.ts';
import { createKey, LLM_BASE_URL, openai, post } from './helpers.ts';
import { fakeAgent } from './helpers/fake-agents.ts';

const weatherTool = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Get the current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  strict: false,
};

/** The named events of a Responses stream, parsed, in order. */
async function readResponseEvents(response: Response): Promise<{ event: string; data: Record<string, unknown> }[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      const event = /^event: (.+)$/m.exec(block)?.[1] ?? '';
      const data = JSON.parse(/^data: (.+)$/m.exec(block)![1]!) as Record<string, unknown>;
      expect(data.type).toBe(event);
      return { event, data };
    });
}

async function create(token: string, body: Record<string, unknown>): Promise<ResponseObject> {
  const response = await post('/responses', token, body);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as ResponseObject;
}

async function errorOf(response: Response) {
  return ((await response.json()) as { error: { message: string; type: string; param: string | null; code: string | null } }).error;
}

let token: string;
beforeAll(async () => {
  token = (await createKey()).key;
});

describe('POST /v1/responses through the official SDK', () => {
  it('answers text with the reply as a message item after the engine’s reasoning, with usage', async () => {
    const response = await openai(token).responses.create({ model: 'llm1', input: 'echo: the heron waits' });
    expect(response.status).toBe('completed');
    expect(response.output_text).toContain('the heron waits');
    expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(response.id).toMatch(/^resp_/);
    expect(response.usage!.input_tokens).toBeGreaterThan(0);
    expect(response.usage!.output_tokens).toBeGreaterThan(0);
    expect(response.usage!.total_tokens).toBe(response.usage!.input_tokens + response.usage!.output_tokens);
  });

  it('reads instructions as instructions: the user’s text after the colon is what is summarised', async () => {
    const response = await openai(token).responses.create({
      model: 'llm1',
      instructions: 'You are a concise assistant for MSFT analysts. Always answer briefly.',
      input: 'Summarise: agents find each other here.',
    });
    expect(response.output_text).toContain('agents find each other here.');
    expect(response.output_text).not.toContain('MSFT');
  });

  it('streams OpenAI’s event sequence, the text deltas adding up to the answer', async () => {
    const raw = await post('/responses', token, { model: 'llm1', input: 'echo: streamed heron', stream: true });
    expect(raw.headers.get('content-type')).toContain('text/event-stream');
    const events = await readResponseEvents(raw);
    const names = events.map((e) => e.event);
    expect(names.slice(0, 2)).toEqual(['response.created', 'response.in_progress']);
    expect(names.at(-1)).toBe('response.completed');
    const messageEvents = names.filter((name) =>
      ['response.content_part.added', 'response.output_text.done', 'response.content_part.done'].includes(name),
    );
    expect(messageEvents).toEqual(['response.content_part.added', 'response.output_text.done', 'response.content_part.done']);
    const text = events
      .filter((e) => e.event === 'response.output_text.delta')
      .map((e) => e.data.delta)
      .join('');
    const done = events.find((e) => e.event === 'response.output_text.done')!;
    expect(done.data.text).toBe(text);
    expect(text).toContain('streamed heron');
    const sequence = events.map((e) => e.data.sequence_number);
    expect(sequence).toEqual(sequence.map((_, index) => index));
    const completed = events.at(-1)!.data.response as ResponseObject;
    expect(completed.usage!.output_tokens).toBeGreaterThan(0);
    expect(completed.output_text).toBe(text);
  });

  it('the SDK’s own stream reader takes the stream', async () => {
    const stream = await openai(token).responses.create({ model: 'llm1', input: 'echo: sdk stream', stream: true });
    let text = '';
    let completed = false;
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = true;
    }
    expect(text).toContain('sdk stream');
    expect(completed).toBe(true);
  });
});

describe('tools through /v1/responses', () => {
  it('calls a function, then answers with its output given back by previous_response_id', async () => {
    const client = openai(token);
    const first = await client.responses.create({ model: 'llm1', input: 'What is the weather in Paris?', tools: [weatherTool] });
    const call = first.output.find((item) => item.type === 'function_call')!;
    expect(call).toMatchObject({ type: 'function_call', name: 'get_weather', status: 'completed' });
    expect(JSON.parse(call.type === 'function_call' ? call.arguments : '{}')).toEqual({ city: 'Paris' });

    const second = await client.responses.create({
      model: 'llm1',
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.type === 'function_call' ? call.call_id : '', output: '18 °C and clear' }],
      tools: [weatherTool],
    });
    expect(second.output_text).toContain('18 °C and clear');
    expect(second.previous_response_id).toBe(first.id);
  });

  it('takes the whole conversation as input items, an earlier output by item_reference', async () => {
    const first = await create(token, { model: 'llm1', input: 'What is the weather in Rome?', tools: [weatherTool] });
    const call = first.output.find((item) => item.type === 'function_call')!;
    expect(call.type).toBe('function_call');
    const second = await create(token, {
      model: 'llm1',
      tools: [weatherTool],
      input: [
        { role: 'user', content: 'What is the weather in Rome?' },
        { type: 'item_reference', id: call.id },
        { type: 'function_call_output', call_id: call.type === 'function_call' ? call.call_id : '', output: '24 °C' },
      ],
    });
    expect(second.output_text).toContain('24 °C');
  });

  it('streams a function call’s arguments as OpenAI does', async () => {
    const raw = await post('/responses', token, { model: 'llm1', input: 'Weather in Oslo please', tools: [weatherTool], stream: true });
    const events = await readResponseEvents(raw);
    const names = events.map((e) => e.event);
    expect(names).toContain('response.function_call_arguments.delta');
    const done = events.find((e) => e.event === 'response.function_call_arguments.done')!;
    expect(JSON.parse(done.data.arguments as string)).toEqual({ city: 'Oslo' });
    const added = events.find(
      (e) => e.event === 'response.output_item.added' && (e.data.item as { type: string }).type === 'function_call',
    )!;
    expect(added.data.item).toMatchObject({ name: 'get_weather', status: 'in_progress' });
  });

  it('refuses a hosted tool, naming it', async () => {
    const response = await post('/responses', token, { model: 'llm1', input: 'hi', tools: [{ type: 'web_search' }] });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error).toMatchObject({ param: 'tools.0', code: 'unsupported_parameter' });
    expect(error.message).toContain('web_search');
  });
});

describe('structured output and stored responses', () => {
  it('text.format json_schema gives JSON that the schema validates', async () => {
    const response = await create(token, {
      model: 'llm1',
      input: 'Extract tickers: NVDA and AAPL',
      text: {
        format: {
          type: 'json_schema',
          name: 'tickers',
          schema: { type: 'object', properties: { tickers: { type: 'array', items: { type: 'string' } } }, required: ['tickers'] },
          strict: true,
        },
      },
    });
    expect(JSON.parse(response.output_text)).toEqual({ tickers: ['NVDA', 'AAPL'] });
  });

  it('json_object without the word json is refused in the Responses API’s terms', async () => {
    const response = await post('/responses', token, { model: 'llm1', input: 'Give me data', text: { format: { type: 'json_object' } } });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.param).toBe('input');
    expect(error.message).toContain("'input' must contain the word 'json'");
    expect(error.message).toContain('text.format');
  });

  it('keeps a response for its key only: GET it, continue from it; another key gets 404 and 400', async () => {
    const first = await create(token, { model: 'llm1', input: 'echo: remember the heron', metadata: { topic: 'birds' } });
    const got = await fetchResponse(token, first.id);
    expect(got.status).toBe(200);
    expect(await got.json()).toMatchObject({ id: first.id, output_text: first.output_text, metadata: { topic: 'birds' } });

    const other = (await createKey()).key;
    expect((await fetchResponse(other, first.id)).status).toBe(404);
    const continued = await post('/responses', other, {
      model: 'llm1',
      previous_response_id: first.id,
      input: 'summarise the conversation',
    });
    expect(continued.status).toBe(400);
    expect(await errorOf(continued)).toMatchObject({ param: 'previous_response_id', code: 'previous_response_not_found' });
  });

  it('continues a conversation: the earlier turn is what a later instruction works on', async () => {
    const text = 'Herons hunt at dawn. They stand still in shallow water for a long time. Then they strike fast at fish.';
    const first = await create(token, { model: 'llm1', input: `echo: ${text}` });
    const second = await create(token, { model: 'llm1', previous_response_id: first.id, input: 'extract numbers' });
    expect(second.output_text).toContain('No numbers found');
    const third = await create(token, { model: 'llm1', previous_response_id: first.id, input: 'summarise the text above' });
    expect(third.output_text).toContain('Herons');
  });

  it('store: false keeps nothing', async () => {
    const response = await create(token, { model: 'llm1', input: 'echo: forget me', store: false });
    expect(response.store).toBe(false);
    expect((await fetchResponse(token, response.id)).status).toBe(404);
  });

  it('DELETE removes a stored response', async () => {
    const response = await create(token, { model: 'llm1', input: 'echo: delete me' });
    const deleted = await fetchResponse(token, response.id, 'DELETE');
    expect(await deleted.json()).toEqual({ id: response.id, object: 'response', deleted: true });
    expect((await fetchResponse(token, response.id)).status).toBe(404);
  });
});

describe('/v1/responses refuses as chat completions does', () => {
  it('an unknown model is 404 model_not_found', async () => {
    const response = await post('/responses', token, { model: 'gpt-9', input: 'hi' });
    expect(response.status).toBe(404);
    expect(await errorOf(response)).toMatchObject({ param: 'model', code: 'model_not_found' });
  });

  it('an unknown parameter is a 400 naming it', async () => {
    const response = await post('/responses', token, { model: 'llm1', input: 'hi', temprature: 1 });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).param).toBe('temprature');
  });

  it('a max_output_tokens that cannot fit is a 422 naming max_output_tokens', async () => {
    const response = await post('/responses', token, { model: 'llm1-tiny', input: 'hi', max_output_tokens: 500 });
    expect(response.status).toBe(422);
    expect(await errorOf(response)).toMatchObject({ param: 'max_output_tokens', code: 'context_length_exceeded' });
  });

  it('a cut answer is incomplete, with max_output_tokens as the reason', async () => {
    const response = await create(token, { model: 'llm1', input: 'echo: a rather long sentence to cut short', max_output_tokens: 3 });
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
  });

  it('an image part for a text-only model names the part and the model', async () => {
    const response = await post('/responses', token, {
      model: 'llm1',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'what is this?' },
            { type: 'input_image', image_url: 'https://example.com/a.png' },
          ],
        },
      ],
    });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error).toMatchObject({ param: 'input.0.content.1', code: 'unsupported_content_part' });
    expect(error.message).toContain('llm1');
  });

  it('counts its usage against the key like a chat completion', async () => {
    const own = (await createKey()).key;
    const response = await create(own, { model: 'llm1', input: 'echo: metered' });
    const report = await (await getUsage(own)).json();
    expect(report).toMatchObject({ totals: { requests: 1, total_tokens: response.usage!.total_tokens } });
  });
});

describe('llm1-agentic through /v1/responses', () => {
  it('its steps are output items (mcp_call, server rendezvous), then the agent’s answer as the message', async () => {
    await fakeAgent({
      name: 'Origami desk',
      handle: 'origami-desk',
      readme:
        '# Origami desk\n\n<description>Answers questions about origami crane folding.</description>\n\nAnswers questions about origami crane folding.\n',
      behaviour: { kind: 'answer', reply: () => 'Fold the crane from a square, colour side down.' },
    });
    const response = await create(token, { model: 'llm1-agentic', input: 'How do I start folding an origami crane?' });
    // The agent's words, labelled as a third party's and quoted (docs/decisions/0121), never in the platform's voice.
    expect(response.output_text).toBe(
      'Origami desk (@origami-desk), a third-party agent not verified by this platform’s operator, answered (its words, not this platform’s):\n\n> Fold the crane from a square, colour side down.',
    );
    const steps = response.output.filter((item) => item.type === 'mcp_call');
    expect(steps.map((item) => item.type === 'mcp_call' && item.name)).toEqual(
      expect.arrayContaining(['search', 'choose', 'sent', 'answered']),
    );
    expect(steps.every((item) => item.type === 'mcp_call' && item.server_label === 'rendezvous')).toBe(true);
    expect(response.output.at(-1)!.type).toBe('message');
    expect(response.intermediate_steps.map((step) => step.step)).toEqual(expect.arrayContaining(['search', 'choose', 'sent', 'answered']));
  });
});

function fetchResponse(key: string, id: string, method = 'GET'): Promise<Response> {
  return SELF.fetch(`${LLM_BASE_URL}/responses/${id}`, { method, headers: { authorization: `Bearer ${key}` } });
}

function getUsage(key: string): Promise<Response> {
  return SELF.fetch(`${LLM_BASE_URL}/usage`, { headers: { authorization: `Bearer ${key}` } });
}
