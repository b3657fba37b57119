import { ChatCompletion, ChatCompletionChunk } from '../../schemas/chat.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createKey, openai, post, readEvents } from './helpers.ts';

let key: string;
beforeAll(async () => {
  key = (await createKey()).key;
});

describe('POST /v1/chat/completions with the openai SDK', () => {
  it('answers a non-streaming request with the full response object', async () => {
    const completion = await openai(key).chat.completions.create({
      model: 'llm1',
      messages: [{ role: 'user', content: 'echo: hello rendezvous' }],
    });
    expect(ChatCompletion.parse(completion)).toBeTruthy();
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('llm1');
    const choice = completion.choices[0]!;
    expect(choice.message.content).toBe('[offline engine: deterministic rules, not a language model]\nhello rendezvous');
    expect(choice.finish_reason).toBe('stop');
    expect(completion.usage!.total_tokens).toBe(completion.usage!.prompt_tokens + completion.usage!.completion_tokens);
    expect(completion.usage!.completion_tokens).toBeGreaterThan(5);
    const extras = completion as unknown as ChatCompletion;
    expect(extras.executable_data).toEqual([]);
    expect(extras.intermediate_steps).toEqual([]);
    expect(extras.metadata).toMatchObject({ provider: 'offline', deterministic: true });
    expect(choice.message).toMatchObject({ refusal: null, tool_calls: null });
  });

  it('streams a role chunk, thought chunks, content chunks, finish, usage and [DONE]', async () => {
    const stream = await openai(key).chat.completions.create({
      model: 'llm1-mini',
      messages: [{ role: 'user', content: 'echo: one two three four five' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(ChatCompletionChunk.parse(chunk));
    const thought = chunks.map((c) => c.thought ?? '').join('');
    const content = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    expect(thought).toContain('Rule: echo');
    expect(content).toBe('[offline engine: deterministic rules, not a language model]\none two three four five');
    expect(chunks.filter((c) => c.choices[0]?.delta.content).length).toBeGreaterThan(5);
    const finish = chunks.find((c) => c.choices[0]?.finish_reason);
    expect(finish!.choices[0]).toMatchObject({ finish_reason: 'stop', stop_reason: null });
    expect(chunks.at(-1)!.usage!.completion_tokens).toBeGreaterThan(5);
    for (const chunk of chunks) {
      expect(chunk).toMatchObject({ id: chunks[0]!.id, object: 'chat.completion.chunk', model: 'llm1-mini', created: expect.any(Number) });
    }
  });

  it('ends the raw event stream with data: [DONE]', async () => {
    const response = await post('/chat/completions', key, {
      model: 'llm1',
      messages: [{ role: 'user', content: 'echo: x' }],
      stream: true,
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = await readEvents(response);
    expect(events.at(-1)).toBe('[DONE]');
  });
});
