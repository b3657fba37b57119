import { EventSourceParserStream } from 'eventsource-parser/stream';

/**
 * The `data` of each server-sent event in a byte stream, as it arrives (eventsource-parser). Stopping the
 * iteration, or aborting `signal`, cancels the body, which cancels the upstream request even when the
 * stream's producer does not watch the signal itself (the AI binding's streams).
 */
export async function* sseData(body: ReadableStream<Uint8Array>, signal: AbortSignal): AsyncGenerator<string> {
  const reader = body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  const cancel = () => void reader.cancel(signal.reason).catch(() => {});
  signal.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value.data;
    }
  } finally {
    signal.removeEventListener('abort', cancel);
    await reader.cancel().catch(() => {});
  }
}
