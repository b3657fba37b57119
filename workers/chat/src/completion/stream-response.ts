import type { ChatCompletionChunk } from '../../../../schemas/chat.ts';
import { errorBody } from '../../../../lib/http/errors.ts';
import { ChatError } from '../chat-error.ts';
import type { ProviderEvent } from '../providers/types.ts';
import type { CompletionContext } from './frame.ts';
import { sseFrames } from './sse-frames.ts';
import { CompletionTally } from './tally.ts';

type Delta = ChatCompletionChunk['choices'][number]['delta'];

/**
 * The completion as server-sent events, pulled from the provider one event at a time (nothing is buffered:
 * each upstream token is written as it comes). Order: role chunk (with executable_data and
 * intermediate_steps), thought and content chunks, finish chunk, usage chunk, `data: [DONE]`. When the client
 * goes away the stream is cancelled, which aborts the upstream request. `settle` gets the tally once, however
 * the stream ends; a completed stream waits for it before `[DONE]`, so usage read after [DONE] includes it.
 */
export function streamCompletion(
  events: AsyncIterable<ProviderEvent>,
  context: CompletionContext,
  promptTokens: number,
  upstream: AbortController,
  settle: (tally: CompletionTally) => Promise<void>,
  background: (work: Promise<unknown>) => void,
): ReadableStream<Uint8Array> {
  const tally = new CompletionTally();
  const iterator = events[Symbol.asyncIterator]();
  let ended = false;
  const end = (): Promise<void> => {
    if (ended) return Promise.resolve();
    ended = true;
    return settle(tally).catch((error: unknown) => console.error('usage not recorded', error));
  };

  const chunk = (delta: Delta, extra: Partial<ChatCompletionChunk> = {}, finish: Partial<ChatCompletionChunk['choices'][number]> = {}): ChatCompletionChunk => ({
    ...context.frame,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: null, logprobs: null, ...finish }],
    ...extra,
  });
  const frames = sseFrames(context.frame);
  const frame = frames.value;

  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(
        frame(
          chunk(
            { role: 'assistant', content: '' },
            { executable_data: context.executableData, intermediate_steps: context.intermediateSteps, metadata: context.metadata },
          ),
        ),
      );
    },
    async pull(controller) {
      try {
        for (;;) {
          const { done, value: event } = await iterator.next();
          if (done) {
            controller.enqueue(frame(chunk({}, {}, { finish_reason: tally.finishReason, stop_reason: tally.stopReason })));
            controller.enqueue(frame(chunk({}, { usage: tally.usage(promptTokens) })));
            await end();
            controller.enqueue(frames.done());
            controller.close();
            return;
          }
          tally.apply(event);
          const out = render(event);
          if (out) {
            controller.enqueue(out);
            return;
          }
        }
      } catch (error) {
        if (upstream.signal.aborted) {
          // The client left (request signal or stream cancel): nobody is reading, so end quietly.
          background(end());
          return;
        }
        const failure = error instanceof ChatError ? error : new ChatError(500, 'the completion failed', 'internal_error');
        if (!(error instanceof ChatError)) console.error('stream failed', error);
        controller.enqueue(frame(errorBody(failure.message, failure.type, failure.param, failure.code)));
        controller.close();
        background(end());
      }
    },
    async cancel() {
      upstream.abort();
      await iterator.return?.().catch(() => {});
      background(end());
    },
  });

  function render(event: ProviderEvent): Uint8Array | null {
    switch (event.type) {
      case 'content':
        return frames.delta({ content: event.text });
      case 'thought':
        return frames.delta({ reasoning_content: event.text }, `,"thought":${JSON.stringify(event.text)}`);
      case 'tool_call':
        return frames.delta({
          tool_calls: [
            {
              index: event.index,
              ...(event.id ? { id: event.id, type: 'function' as const } : {}),
              function: { ...(event.name ? { name: event.name } : {}), arguments: event.arguments },
            },
          ],
        });
      default:
        return null;
    }
  }
}
