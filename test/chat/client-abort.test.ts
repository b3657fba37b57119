import { createExecutionContext, env } from 'cloudflare:test';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import worker from '../../workers/chat/src/index.ts';
import { createKey } from './helpers.ts';

/**
 * A client that disconnects must cancel the upstream request. The runtime signals a disconnect by aborting the
 * incoming request's signal (enable_request_signal) or cancelling the response body; SELF.fetch in the test
 * runtime does neither, so these tests call the Worker's fetch handler with a request whose signal they abort,
 * and watch the upstream fetch the Worker makes (a never-ending stream of tokens).
 */
let key: string;
beforeAll(async () => {
  key = (await createKey()).key;
});
afterEach(() => vi.restoreAllMocks());

function endlessUpstream() {
  const seen = { signal: null as AbortSignal | null, cancelled: false, pulled: 0 };
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
    seen.signal = init?.signal ?? null;
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        controller.enqueue(encoder.encode(`data: {"choices":[{"index":0,"delta":{"content":"t${seen.pulled++} "}}]}\n\n`));
      },
      cancel() {
        seen.cancelled = true;
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  });
  return seen;
}

function completionRequest(signal?: AbortSignal) {
  return new Request('http://chat.test/v1/chat/completions', {
    method: 'POST',
    signal,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'relay', messages: [{ role: 'user', content: 'go on forever' }], stream: true }),
  });
}

async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, text: string) {
  let received = '';
  while (!received.includes(text)) received += new TextDecoder().decode((await reader.read()).value);
}

async function settled(check: () => boolean) {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('a client that goes away mid-stream', () => {
  it('aborts the upstream request when the request signal fires (disconnect)', async () => {
    const upstream = endlessUpstream();
    const client = new AbortController();
    const response = await worker.fetch(completionRequest(client.signal), env, createExecutionContext());
    await readUntil(response.body!.getReader(), 't2 ');
    client.abort();
    await settled(() => upstream.cancelled);
    expect(upstream.signal!.aborted).toBe(true);
    expect(upstream.cancelled).toBe(true);
    // A pull already under way may finish; after that nothing more is read.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const pulled = upstream.pulled;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(upstream.pulled).toBe(pulled);
  });

  it('aborts the upstream request when the response stream is cancelled', async () => {
    const upstream = endlessUpstream();
    const response = await worker.fetch(completionRequest(), env, createExecutionContext());
    const reader = response.body!.getReader();
    await readUntil(reader, 't2 ');
    await reader.cancel();
    await settled(() => upstream.cancelled);
    expect(upstream.signal!.aborted).toBe(true);
    expect(upstream.cancelled).toBe(true);
  });
});
