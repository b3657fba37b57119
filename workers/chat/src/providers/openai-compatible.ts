import type { ServedModel } from '../config/models.ts';
import { fromUpstreamStatus, providerError } from './errors.ts';
import { sseData } from './sse.ts';
import { translateStream } from './stream-translator.ts';
import { type Provider, type ProviderRequest, wireMessages } from './types.ts';

interface UpstreamOptions {
  baseUrl: string;
  apiKey?: string;
  /** How long the upstream may take to answer with headers before the request fails. */
  timeoutMs: number;
}

/**
 * Any OpenAI-compatible server (vLLM, llama.cpp server, Ollama's /v1, OpenAI). The admitted OpenAI parameters
 * (seed, penalties, logit_bias, response_format, user, …) are passed as they came: the upstream honours them or
 * refuses the request (then a 422). Always streams from the upstream, so a non-streaming request costs the same and the client's disconnect can cancel the upstream.
 */
export function openAiCompatibleProvider(model: ServedModel, options: UpstreamOptions): Provider {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return {
    async stream(request: ProviderRequest) {
      const { parallel_tool_calls, ...parameters } = request.parameters;
      const body = {
        ...parameters,
        parallel_tool_calls: request.tools ? parallel_tool_calls : undefined,
        model: request.model,
        messages: wireMessages(request.messages),
        temperature: request.temperature,
        top_p: request.top_p,
        max_tokens: request.max_tokens,
        stop: request.stop.length ? request.stop : undefined,
        tools: request.tools,
        tool_choice: request.tools ? request.tool_choice : undefined,
        stream: true,
        stream_options: { include_usage: true },
      };
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
      if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;

      const timeout = AbortSignal.timeout(options.timeoutMs);
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
          signal: AbortSignal.any([request.signal, timeout]),
        });
      } catch (error) {
        if (timeout.aborted)
          throw providerError(503, `the upstream for ${model.alias} did not answer within ${options.timeoutMs} ms`, 'upstream_timeout', 1);
        if (request.signal.aborted) throw error;
        // The fetch error names hosts and DNS failures: logged, not answered.
        console.error(`chat: the upstream of ${model.alias} cannot be reached`, error);
        throw providerError(422, `model ${model.alias} is unavailable: its upstream cannot be reached`, 'model_unavailable');
      }
      if (!response.ok || !response.body) {
        const detail = (await response.text().catch(() => '')).slice(0, 500);
        throw fromUpstreamStatus(response.status, detail || response.statusText, response.headers.get('retry-after'));
      }
      return translateStream(sseData(response.body, request.signal), { think: model.think, maxTokens: request.max_tokens });
    },
  };
}
