import { providerError } from './errors.ts';
import { ThinkSplitter } from './think-splitter.ts';
import { normaliseFinishReason, type ProviderEvent } from './types.ts';

interface OpenAiDelta {
  content?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[] | null;
}

interface StreamChunk {
  /** OpenAI style (OpenAI, vLLM, llama.cpp, Ollama /v1, newer Workers AI models). */
  choices?: { delta?: OpenAiDelta; finish_reason?: string | null; stop_reason?: string | number | null }[];
  /** Workers AI native style: `{"response": "text"}`, tool calls and usage on the last events. */
  response?: string | null;
  tool_calls?: { id?: string; name?: string; arguments?: unknown }[] | null;
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string } | string;
}

/**
 * Turns the `data` payloads of an upstream chat stream into provider events. Understands OpenAI-style chunks
 * (reasoning in `reasoning_content` or `reasoning`, or inside `<think>` tags in the content) and Workers AI's
 * native `{response}` events, chunk by chunk, so each token leaves as soon as it arrives.
 */
export async function* translateStream(
  data: AsyncIterable<string>,
  options: { think: 'tags' | 'open'; maxTokens: number },
): AsyncGenerator<ProviderEvent> {
  const splitter = new ThinkSplitter(options.think);
  let finish: string | null = null;
  let stopReason: string | number | null = null;
  let usage: { promptTokens: number; completionTokens: number } | null = null;
  let nativeToolCalls = 0;

  for await (const payload of data) {
    if (payload === '[DONE]') break;
    let chunk: StreamChunk;
    try {
      chunk = JSON.parse(payload) as StreamChunk;
    } catch {
      throw providerError(503, 'the upstream sent a stream event that is not JSON', 'upstream_bad_stream', 1);
    }
    if (chunk.error) {
      const message = typeof chunk.error === 'string' ? chunk.error : (chunk.error.message ?? 'unknown error');
      throw providerError(503, `upstream error mid-stream: ${message}`, 'upstream_error', 1);
    }
    for (const choice of chunk.choices?.slice(0, 1) ?? []) {
      const delta = choice.delta ?? {};
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (reasoning) yield { type: 'thought', text: reasoning };
      if (delta.content) yield* splitter.push(delta.content);
      for (const call of delta.tool_calls ?? []) {
        yield {
          type: 'tool_call',
          index: call.index ?? 0,
          id: call.id,
          name: call.function?.name,
          arguments: call.function?.arguments ?? '',
        };
      }
      if (choice.finish_reason) finish = choice.finish_reason;
      if (choice.stop_reason !== undefined && choice.stop_reason !== null) stopReason = choice.stop_reason;
    }
    if (typeof chunk.response === 'string' && chunk.response) yield* splitter.push(chunk.response);
    for (const call of chunk.tool_calls ?? []) {
      const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
      yield { type: 'tool_call', index: nativeToolCalls++, id: call.id, name: call.name, arguments: args };
    }
    if (chunk.usage && typeof chunk.usage.prompt_tokens === 'number') {
      usage = { promptTokens: chunk.usage.prompt_tokens, completionTokens: chunk.usage.completion_tokens ?? 0 };
    }
  }
  yield* splitter.flush();
  if (!finish && nativeToolCalls > 0) finish = 'tool_calls';
  // Workers AI's native stream reports no finish reason; a completion that used its whole budget was cut.
  if (!finish && usage && usage.completionTokens >= options.maxTokens) finish = 'length';
  yield { type: 'finish', reason: normaliseFinishReason(finish), stopReason };
  if (usage) yield { type: 'usage', ...usage };
}
