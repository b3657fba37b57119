import type { ChatCompletionChunk } from '../../../../schemas/chat.ts';
import { ApiError, platformErrorBody } from '../../../../lib/http/api-error.ts';
import type { CompletionEvent } from './events.ts';
import { type CompletionContext, recordStep } from './frame.ts';
import { sseFrames } from './sse-frames.ts';
import { CompletionTally } from './tally.ts';

type Delta = ChatCompletionChunk['choices'][number]['delta'];

const encoder = new TextEncoder();
const IDLE = Symbol('idle');

/**
 * Resolves once the microtasks queued so far, and many generations of those they queue, have run. An event the
 * provider already read from the network comes through its generators in that time; one still on the network
 * cannot, since it waits for I/O. So racing the next event against this tells "ready now" from "not yet".
 */
async function idle(): Promise<typeof IDLE> {
  for (let turn = 0; turn < 64; turn++) await null;
  return IDLE;
}

/**
 * The completion as server-sent events, pulled from the provider as events come (nothing waits: a token is
 * written as soon as it arrives, and the tokens that arrived together — one network read — are written
 * together, so a Worker that fell behind a fast upstream catches up in fewer, larger writes). Order: role chunk (with executable_data and
 * intermediate_steps), thought and content chunks, finish chunk, the usage chunk (OpenAI's: `choices: []`, only
 * with `stream_options.include_usage`), `data: [DONE]`. When the client
 * goes away the stream is cancelled, which aborts the upstream request. `settle` gets the tally once, however
 * the stream ends; a completed stream waits for it before `[DONE]`, so usage read after [DONE] includes it.
 */
export function streamCompletion(
  events: AsyncIterable<CompletionEvent>,
  context: CompletionContext,
  promptTokens: number,
  upstream: AbortController,
  settle: (tally: CompletionTally) => Promise<void>,
  background: (work: Promise<unknown>) => void,
  includeUsage: boolean,
): ReadableStream<Uint8Array> {
  const tally = new CompletionTally();
  const iterator = events[Symbol.asyncIterator]();
  let ended = false;
  const end = (): Promise<void> => {
    if (ended) return Promise.resolve();
    ended = true;
    return settle(tally).catch((error: unknown) => console.error('usage not recorded', error));
  };

  const chunk = (
    delta: Delta,
    extra: Partial<ChatCompletionChunk> = {},
    finish: Partial<ChatCompletionChunk['choices'][number]> = {},
  ): ChatCompletionChunk => ({
    ...context.frame,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: null, logprobs: null, ...finish }],
    ...extra,
    ...(includeUsage ? { usage: null } : {}),
  });
  const frames = sseFrames(context.frame, includeUsage);
  const frame = frames.value;
  /** An event asked for by a pull that sent what it had before the event came; the next pull takes it up. */
  let waiting: Promise<IteratorResult<CompletionEvent>> | null = null;

  return new ReadableStream<Uint8Array>({
    start(controller) {
      const role = chunk(
        { role: 'assistant', content: '' },
        { executable_data: context.executableData, intermediate_steps: context.intermediateSteps, metadata: context.metadata },
      );
      controller.enqueue(encoder.encode(frame(role)));
    },
    async pull(controller) {
      const batch: string[] = [];
      const flush = () => {
        if (batch.length) controller.enqueue(encoder.encode(batch.splice(0).join('')));
      };
      try {
        for (;;) {
          const next = waiting ?? iterator.next();
          waiting = null;
          const step = batch.length ? await Promise.race([next, idle()]) : await next;
          if (step === IDLE) {
            // The next event is still on the network: send what is ready and take it up on the next pull. The
            // no-op catch only keeps a failure arriving before then from being reported as unhandled.
            next.catch(() => {});
            waiting = next;
            flush();
            return;
          }
          if (step.done) {
            batch.push(frame(chunk({}, {}, { finish_reason: tally.finishReason, stop_reason: tally.stopReason })));
            if (includeUsage)
              batch.push(frame({ ...context.frame, object: 'chat.completion.chunk', choices: [], usage: tally.usage(promptTokens) }));
            flush();
            await end();
            controller.enqueue(encoder.encode(frames.done));
            controller.close();
            return;
          }
          tally.apply(step.value);
          const out = render(step.value);
          if (out) batch.push(out);
        }
      } catch (error) {
        if (upstream.signal.aborted) {
          // The client left (request signal or stream cancel): nobody is reading, so end quietly.
          background(end());
          return;
        }
        const failure =
          error instanceof ApiError
            ? error
            : new ApiError({
                status: 500,
                message: 'the completion failed',
                code: 'internal_error',
              });
        if (!(error instanceof ApiError)) console.error('stream failed', error);
        batch.push(frame(platformErrorBody(failure)));
        flush();
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

  function render(event: CompletionEvent): string | null {
    switch (event.type) {
      case 'step':
        // Sent as it happens: a chunk with an empty delta, the new step, and the agents considered when they changed.
        recordStep(context, event);
        return frame(chunk({}, { intermediate_steps: [event.step], ...(event.manifests ? { executable_data: event.manifests } : {}) }));
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
