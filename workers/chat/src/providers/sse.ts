import { EventSourceParserStream } from 'eventsource-parser/stream';

/**
 * The `data` of each server-sent event in a byte stream, as it arrives (eventsource-parser). Stopping the
 * iteration cancels the body, which cancels the upstream request.
 */
export async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value.data;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
