import { EventSourceParserStream } from 'eventsource-parser/stream';
import type { z } from 'zod';
import { ChatCompletionChunk, ModelList, type ChatCompletionRequest } from '../../../schemas/chat.ts';
import { CHAT_URL } from './config.ts';
import { ApiError, bearer, requestJson, send } from './http.ts';

/** The chat Worker's public API (OpenAI-compatible), typed by its wire schemas. */

export type ModelInfo = ModelList['data'][number];
export type ChatRequestInput = z.input<typeof ChatCompletionRequest>;

export async function listModels(token: string): Promise<ModelInfo[]> {
  return (await requestJson(`${CHAT_URL}/v1/models`, { headers: bearer(token) }, ModelList)).data;
}

/**
 * Streams a completion: each `data:` event is checked against the chunk schema and handed to `onChunk`
 * until `data: [DONE]`. `headers`: extra request headers (`x-session-id` continues an agent conversation). Throws ApiError for an error status, and AbortError when `signal` aborts.
 */
export async function streamCompletion(
  token: string,
  request: ChatRequestInput,
  onChunk: (chunk: ChatCompletionChunk) => void,
  signal?: AbortSignal,
  headers: Record<string, string> = {},
): Promise<void> {
  const response = await send(`${CHAT_URL}/v1/chat/completions`, {
    method: 'POST',
    headers: { ...headers, ...bearer(token), 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    // The usage chunk comes only when asked for (OpenAI's rule); the playground shows the counts.
    body: JSON.stringify({ ...request, stream: true, stream_options: { include_usage: true } }),
    signal,
  });
  if (!response.body) throw new ApiError(response.status, 'the stream has no body');
  const events = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  for (;;) {
    const { done, value: event } = await events.read();
    if (done) break;
    if (event.data === '[DONE]') {
      await events.cancel();
      return;
    }
    const chunk = ChatCompletionChunk.safeParse(JSON.parse(event.data));
    if (!chunk.success)
      throw new ApiError(response.status, `unexpected stream event: ${chunk.error.issues[0]?.message ?? 'invalid chunk'}`);
    onChunk(chunk.data);
  }
  throw new ApiError(response.status, 'the stream ended before [DONE]');
}
