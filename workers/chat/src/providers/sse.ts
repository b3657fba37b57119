import { createParser } from 'eventsource-parser';

/**
 * The `data` of each server-sent event in a byte stream, as it arrives (eventsource-parser). The body is read
 * and parsed here, with no TransformStream between: each piece read from the network is decoded and parsed at
 * once, and every event it completed is handed on before the next read (one read may carry many events).
 * Stopping the iteration, or aborting `signal`, cancels the body, which cancels the upstream request even when
 * the stream's producer does not watch the signal itself (the AI binding's streams).
 */
export async function* sseData(body: ReadableStream<Uint8Array>, signal: AbortSignal): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const ready: string[] = [];
  const parser = createParser({ onEvent: (event) => void ready.push(event.data) });
  const cancel = () => void reader.cancel(signal.reason).catch(() => {});
  signal.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      parser.feed(done ? decoder.decode() : decoder.decode(value, { stream: true }));
      // Handed on one by one; the array is emptied first so a consumer that stops midway leaves nothing behind.
      for (const data of ready.splice(0)) yield data;
      if (done) return;
    }
  } finally {
    signal.removeEventListener('abort', cancel);
    await reader.cancel().catch(() => {});
  }
}
