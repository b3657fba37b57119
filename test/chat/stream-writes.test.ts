import { createExecutionContext, env } from 'cloudflare:test';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import worker from '../../workers/chat/src/index.ts';
import { createKey } from './helpers.ts';

/**
 * How the stream is written: a token leaves as soon as it arrives (never held for the next one), and tokens
 * that arrive together (one upstream read) leave in one write. These call the Worker's fetch handler directly,
 * so the chunks read here are exactly the Worker's writes; the upstream is the mocked outbound fetch.
 */
let key: string;
beforeAll(async () => {
  key = (await createKey()).key;
});
afterEach(() => vi.restoreAllMocks());

const encoder = new TextEncoder();
const token = (n: number) => `data: {"choices":[{"index":0,"delta":{"content":"t${n} "}}]}\n\n`;

/** An upstream whose body the test writes: `send` puts one piece on the wire. */
function scriptedUpstream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
  });
  vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(body, { headers: { 'content-type': 'text/event-stream' } }));
  return { send: (text: string) => controller.enqueue(encoder.encode(text)), end: () => controller.close() };
}

async function stream(): Promise<ReadableStreamDefaultReader<Uint8Array>> {
  const request = new Request('http://chat.test/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'relay', messages: [{ role: 'user', content: 'stream' }], stream: true }),
  });
  const response = await worker.fetch(request, env, createExecutionContext());
  expect(response.status).toBe(200);
  return response.body!.getReader();
}

describe('writing the stream', () => {
  it('sends each token as it arrives, before the upstream sends the next', async () => {
    const upstream = scriptedUpstream();
    const reader = await stream();
    let received = new TextDecoder().decode((await reader.read()).value);
    expect(received).toContain('"role":"assistant"');
    for (let n = 0; n < 5; n++) {
      upstream.send(token(n));
      while (!received.includes(`"t${n} "`)) received += new TextDecoder().decode((await reader.read()).value);
    }
    upstream.send('data: [DONE]\n\n');
    upstream.end();
    while (!(await reader.read()).done);
  });

  it('writes the tokens of one upstream read together, every one of them', async () => {
    const upstream = scriptedUpstream();
    const reader = await stream();
    await reader.read(); // the role chunk
    upstream.send(Array.from({ length: 100 }, (_, n) => token(n)).join(''));
    upstream.send('data: [DONE]\n\n');
    upstream.end();
    const writes: string[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) writes.push(new TextDecoder().decode(read.value));
    const text = writes.join('');
    expect(text.match(/"content":"t\d+ "/g)).toHaveLength(100);
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(writes.length).toBeLessThanOrEqual(3);
  });
});
