import { ApiError } from '../../../../lib/http/api-error.ts';
import type { ChatMessage } from '../../../../schemas/chat.ts';
import type { ResponseObject, ResponseRequest } from '../../../../schemas/responses.ts';
import type { StartedCompletion } from '../completion/start.ts';
import { CompletionTally } from '../completion/tally.ts';
import { finalStatus, OutputBuilder, outputText, responseUsage, type StreamEvent } from './output.ts';
import type { StoredResponse } from './response-store.ts';
import { conversationAfter } from './to-completion.ts';

/** How a finished response is kept for `previous_response_id` and `item_reference` (the key's ResponseStore). */
export type SaveResponse = (stored: StoredResponse) => Promise<void>;

/** One response in the making: its object as it stands, its output as it is built, and how it ends. */
export class ResponseRun {
  readonly builder: OutputBuilder;
  readonly tally = new CompletionTally();
  private readonly base: ResponseObject;

  constructor(
    private readonly run: StartedCompletion,
    body: ResponseRequest,
    /** The conversation before this response's output: earlier responses' and this input. */
    private readonly conversation: ChatMessage[],
    private readonly save: SaveResponse | null,
  ) {
    this.builder = new OutputBuilder(run.context);
    this.base = {
      id: `resp_${run.context.frame.id.replace(/^chatcmpl-/, '')}`,
      object: 'response',
      created_at: run.context.frame.created,
      status: 'in_progress',
      error: null,
      incomplete_details: null,
      model: run.model.alias,
      instructions: body.instructions ?? null,
      output: [],
      output_text: '',
      previous_response_id: body.previous_response_id ?? null,
      parallel_tool_calls: body.parallel_tool_calls ?? true,
      tool_choice: body.tool_choice ?? 'auto',
      tools: body.tools ?? [],
      text: { format: body.text?.format ?? { type: 'text' } },
      temperature: body.temperature ?? 1,
      top_p: body.top_p ?? 1,
      max_output_tokens: body.max_output_tokens ?? null,
      store: save !== null,
      metadata: body.metadata ?? {},
      service_tier: 'default',
      truncation: 'disabled',
      usage: null,
      user: body.user ?? null,
      executable_data: run.context.executableData,
      intermediate_steps: run.context.intermediateSteps,
    };
  }

  /** The response before its output: what `response.created` carries. */
  started(): ResponseObject {
    return { ...this.base, executable_data: [...this.run.context.executableData], intermediate_steps: [] };
  }

  apply(event: Parameters<OutputBuilder['apply']>[0]): StreamEvent[] {
    this.tally.apply(event);
    return this.builder.apply(event);
  }

  /** The complete response: metered, and stored (unless `store: false`) before anyone is told it is done. */
  async complete(): Promise<ResponseObject> {
    this.builder.finish();
    const output = this.builder.items;
    const response: ResponseObject = {
      ...this.base,
      ...finalStatus(this.tally),
      output,
      output_text: outputText(output),
      usage: responseUsage(this.tally, this.run.promptTokens),
      executable_data: this.run.context.executableData,
      intermediate_steps: this.run.context.intermediateSteps,
    };
    await this.run.settle(this.tally);
    await this.save?.({
      id: response.id,
      response: JSON.stringify(response),
      conversation: JSON.stringify(conversationAfter(this.conversation, output)),
      items: output.map((item) => ({ id: item.id, item: JSON.stringify(item) })),
    });
    return response;
  }

  /** A response that failed part way: what `response.failed` carries. */
  failed(error: ApiError): ResponseObject {
    return {
      ...this.base,
      status: 'failed',
      error: { code: error.code ?? 'server_error', message: error.message },
      output: this.builder.items,
    };
  }
}

/** Runs a response to its end and answers with its object. */
export async function collectResponse(response: ResponseRun, run: StartedCompletion): Promise<ResponseObject> {
  try {
    for await (const event of run.events) response.apply(event);
    return await response.complete();
  } catch (error) {
    await run.release();
    throw error;
  }
}

const encoder = new TextEncoder();

/**
 * The response as OpenAI's Responses stream: `response.created`, `response.in_progress`, the output items'
 * events as the completion makes them, then `response.completed` (or `response.incomplete`) once the usage is
 * metered and the response stored, or `response.failed`. When the client goes away the upstream is aborted.
 */
export function streamResponse(
  response: ResponseRun,
  run: StartedCompletion,
  background: (work: Promise<unknown>) => void,
): ReadableStream<Uint8Array> {
  const iterator = run.events[Symbol.asyncIterator]();
  let sequence = 0;
  let ended = false;
  const frame = (event: StreamEvent) => `event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: sequence++ })}\n\n`;
  const settleOnce = () => {
    if (ended) return Promise.resolve();
    ended = true;
    return run.settle(response.tally).catch((error: unknown) => console.error('usage not recorded', error));
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const created = response.started();
      controller.enqueue(
        encoder.encode(frame({ type: 'response.created', response: created }) + frame({ type: 'response.in_progress', response: created })),
      );
    },
    async pull(controller) {
      try {
        // Events that make no stream event (finish, usage) are taken in the same pull: a pull must enqueue.
        for (let step = await iterator.next(); !step.done; step = await iterator.next()) {
          const events = response.apply(step.value);
          if (events.length) {
            controller.enqueue(encoder.encode(events.map(frame).join('')));
            return;
          }
        }
        const closing = response.builder.finish();
        ended = true;
        const final = await response.complete();
        const kind = final.status === 'incomplete' ? 'response.incomplete' : 'response.completed';
        controller.enqueue(encoder.encode([...closing, { type: kind, response: final }].map(frame).join('')));
        controller.close();
      } catch (error) {
        if (run.upstream.signal.aborted) {
          background(settleOnce());
          return;
        }
        const failure =
          error instanceof ApiError ? error : new ApiError({ status: 500, message: 'the response failed', code: 'internal_error' });
        if (!(error instanceof ApiError)) console.error('response stream failed', error);
        controller.enqueue(encoder.encode(frame({ type: 'response.failed', response: response.failed(failure) })));
        controller.close();
        background(settleOnce());
      }
    },
    async cancel() {
      run.upstream.abort();
      await iterator.return?.().catch(() => {});
      background(settleOnce());
    },
  });
}
