import type { ServedModel } from '../config/models.ts';
import { fromWorkersAiError } from './errors.ts';
import { sseData } from './sse.ts';
import { translateStream } from './stream-translator.ts';
import type { Provider, ProviderRequest } from './types.ts';

/** The slice of the `AI` binding the gateway uses (model ids come from configuration, so untyped). */
export interface AiRunner {
  run(model: string, inputs: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<unknown>;
}

/** A complete (non-streamed) answer rendered as a one-event stream, so both shapes reach the same code. */
async function* single(result: unknown): AsyncGenerator<string> {
  yield JSON.stringify(toStreamShape(result));
}

/** Workers AI answers `{response, tool_calls, usage}` (native) or an OpenAI completion; both become a chunk. */
function toStreamShape(result: unknown): unknown {
  const value = (result ?? {}) as {
    choices?: { message?: Record<string, unknown>; finish_reason?: string }[];
    usage?: unknown;
    response?: unknown;
  };
  if (Array.isArray(value.choices)) {
    return {
      choices: value.choices.map((choice) => ({
        delta: {
          ...choice.message,
          tool_calls: (choice.message?.tool_calls as { function?: unknown }[] | undefined)?.map((call, index) => ({ index, ...call })),
        },
        finish_reason: choice.finish_reason,
      })),
      usage: value.usage,
    };
  }
  return {
    ...value,
    response: typeof value.response === 'string' ? value.response : value.response == null ? '' : JSON.stringify(value.response),
  };
}

/**
 * Workers AI through the `AI` binding (the deployed default). Streams when it can; with tools it asks for a
 * complete answer, because most Workers AI models return tool calls only that way.
 */
export function workersAiProvider(model: ServedModel, ai: AiRunner): Provider {
  return {
    async stream(request: ProviderRequest) {
      const streaming = !request.tools?.length;
      const inputs: Record<string, unknown> = {
        messages: request.messages,
        max_tokens: request.max_tokens,
        temperature: request.temperature,
        stream: streaming,
      };
      if (request.top_p !== undefined) inputs.top_p = request.top_p;
      if (request.tools?.length) inputs.tools = request.tools;
      let result: unknown;
      try {
        result = await ai.run(model.model, inputs, { signal: request.signal });
      } catch (error) {
        if (request.signal.aborted) throw error;
        throw fromWorkersAiError(error);
      }
      const data = result instanceof ReadableStream ? sseData(result as ReadableStream<Uint8Array>, request.signal) : single(result);
      return translateStream(data, { think: model.think, maxTokens: request.max_tokens });
    },
  };
}
