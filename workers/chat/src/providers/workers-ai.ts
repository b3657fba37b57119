import type { ServedModel } from '../config/models.ts';
import { fromWorkersAiError } from './errors.ts';
import { sseData } from './sse.ts';
import { translateStream } from './stream-translator.ts';
import { askedShape } from './asked-shape.ts';
import {
  type PassedParameters,
  type Provider,
  type ProviderEvent,
  type ProviderMessage,
  type ProviderRequest,
  wireMessages,
} from './types.ts';

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
 * OpenAI's response_format in Workers AI's JSON Mode shape, which takes the schema itself as `json_schema`. JSON
 * mode asks for the shape the messages describe, when they describe one (asked-shape.ts), so the model keeps to it.
 */
function jsonMode(format: PassedParameters['response_format'], messages: ProviderMessage[]): Record<string, unknown> | undefined {
  if (format?.type === 'json_object') {
    const asked = askedShape(messages.map((message) => message.content));
    return asked ? { type: 'json_schema', json_schema: asked } : { type: 'json_object' };
  }
  if (format?.type === 'json_schema') return { type: 'json_schema', json_schema: format.json_schema.schema ?? { type: 'object' } };
  return undefined;
}

/** `parallel_tool_calls: false`, which Workers AI does not take, kept by passing on the first tool call only. */
async function* firstToolCallOnly(events: AsyncIterable<ProviderEvent>): AsyncGenerator<ProviderEvent> {
  for await (const event of events) if (event.type !== 'tool_call' || event.index === 0) yield event;
}

/**
 * Workers AI through the `AI` binding (the deployed default). Streams when it can; with tools or JSON Mode it
 * asks for a complete answer, because most Workers AI models return tool calls only that way and JSON Mode does
 * not stream. tool_choice "none" is kept by sending no tools (parameters.ts refuses the choices it cannot keep).
 */
export function workersAiProvider(model: ServedModel, ai: AiRunner): Provider {
  return {
    async stream(request: ProviderRequest) {
      const tools = request.tool_choice === 'none' ? undefined : request.tools?.length ? request.tools : undefined;
      const { seed, frequency_penalty, presence_penalty, response_format, parallel_tool_calls } = request.parameters;
      const responseFormat = jsonMode(response_format, request.messages);
      const streaming = !tools && !responseFormat;
      const inputs: Record<string, unknown> = {
        messages: wireMessages(request.messages),
        max_tokens: request.max_tokens,
        temperature: request.temperature,
        stream: streaming,
      };
      if (request.top_p !== undefined) inputs.top_p = request.top_p;
      if (tools) inputs.tools = tools;
      if (responseFormat) inputs.response_format = responseFormat;
      if (seed !== undefined) inputs.seed = seed;
      if (frequency_penalty !== undefined) inputs.frequency_penalty = frequency_penalty;
      if (presence_penalty !== undefined) inputs.presence_penalty = presence_penalty;
      let result: unknown;
      try {
        result = await ai.run(model.model, inputs, { signal: request.signal });
      } catch (error) {
        if (request.signal.aborted) throw error;
        throw fromWorkersAiError(error);
      }
      const data = result instanceof ReadableStream ? sseData(result as ReadableStream<Uint8Array>, request.signal) : single(result);
      const events = translateStream(data, { think: model.think, maxTokens: request.max_tokens });
      return parallel_tool_calls === false ? firstToolCallOnly(events) : events;
    },
  };
}
