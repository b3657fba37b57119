import { Hono } from 'hono';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { validate } from '../../../../lib/http/validate.ts';
import { CHAT_MAX_BODY_BYTES, ChatCompletionRequest } from '../../../../schemas/chat.ts';
import type { ChatApp } from '../auth/require-key.ts';
import { completionBudget } from '../completion/budget.ts';
import { completionContext } from '../completion/frame.ts';
import { collectCompletion } from '../completion/json-response.ts';
import { toProviderMessages } from '../completion/messages.ts';
import { streamCompletion } from '../completion/stream-response.ts';
import type { CompletionTally } from '../completion/tally.ts';
import { countPrompt } from '../completion/tokens.ts';
import { readModelMap } from '../config/models.ts';
import { discoverAgents, discoveryContext } from '../discovery/discover.ts';
import { rateLimitHeaders } from '../limits/headers.ts';
import { meterFor } from '../limits/meter.ts';
import { isAvailable, selectProvider } from '../providers/select.ts';
import type { ProviderEvent, ProviderMessage } from '../providers/types.ts';
import { limitedError } from './respond.ts';

/** Puts the discovery context after the caller's leading system messages, where models look for it. */
function withContext(messages: ProviderMessage[], context: ProviderMessage[]): ProviderMessage[] {
  if (!context.length) return messages;
  const at = messages.findIndex((m) => m.role !== 'system');
  return at < 0 ? [...messages, ...context] : [...messages.slice(0, at), ...context, ...messages.slice(at)];
}

/** The body, over CHAT_MAX_BODY_BYTES refused from Content-Length or as it streams in: never read whole. */
const validRequest = validate('json', ChatCompletionRequest, undefined, CHAT_MAX_BODY_BYTES);

/** POST /v1/chat/completions: validate, check the window, admit against the key's limits, run, meter. */
export const completions = new Hono<ChatApp>().post('/chat/completions', validRequest, async (c) => {
  const request = c.req.valid('json');
  const key = c.get('key');
  const models = readModelMap(c.env.MODEL_MAP);
  const model = models.get(request.model);
  if (!model) {
    const message = `model ${request.model} does not exist; served models: ${[...models.keys()].join(', ')}`;
    throw await limitedError(c, new ApiError({ status: 400, message, param: 'model', code: 'model_not_found' }));
  }
  if (!isAvailable(model, c.env)) {
    const message = `model ${model.alias} is unavailable here: its ${model.provider} provider is not configured`;
    throw await limitedError(c, new ApiError({ status: 422, message, param: 'model', code: 'model_unavailable' }));
  }
  const messages = toProviderMessages(request.messages);
  const tools = request.tools?.length ? request.tools : undefined;
  const promptTokens = countPrompt(messages, tools);
  let maxTokens: number;
  try {
    maxTokens = completionBudget(model, promptTokens, request.max_completion_tokens ?? request.max_tokens);
  } catch (error) {
    throw await limitedError(c, error);
  }

  const meter = meterFor(c.env, key.keyId);
  const admission = await meter.admit(key.limits, promptTokens + maxTokens);
  if (!admission.ok) {
    const what = {
      requests: 'requests per minute',
      tokens: 'tokens per minute',
      request_too_large: 'tokens per minute (this one request asks for more)',
    }[admission.limit];
    const limit = admission.limit === 'requests' ? admission.state.limitRequests : admission.state.limitTokens;
    const refusal = new ApiError({
      status: 429,
      message: `rate limit reached for this key: ${limit} ${what}`,
      code: admission.limit === 'request_too_large' ? 'request_too_large' : 'rate_limit_exceeded',
      headers: { 'retry-after': String(Math.max(1, Math.ceil(admission.retryAfterMs / 1000))) },
    });
    throw await limitedError(c, refusal, admission.state);
  }
  const headers = rateLimitHeaders(admission.state);
  // The discovery context joins the prompt once it is known; it is counted like the caller's messages.
  let sentPromptTokens = promptTokens;
  const settle = (tally: CompletionTally) => {
    const usage = tally.usage(sentPromptTokens);
    return meter.settle(admission.reservation, model.alias, usage.prompt_tokens, usage.completion_tokens);
  };

  // Aborted when the client goes away, so the upstream stops: the request's signal fires on disconnect
  // (enable_request_signal), and a cancelled response stream aborts it too.
  const upstream = new AbortController();
  c.req.raw.signal.addEventListener('abort', () => upstream.abort());

  let events: AsyncIterable<ProviderEvent>;
  let context: ReturnType<typeof completionContext>;
  try {
    const discovery = await discoverAgents(c.env, key.token, request, messages, upstream.signal);
    context = completionContext(model, discovery);
    const found = discoveryContext(discovery.manifests);
    if (found.length) {
      sentPromptTokens = countPrompt(withContext(messages, found), tools);
      maxTokens = completionBudget(model, sentPromptTokens, request.max_completion_tokens ?? request.max_tokens);
    }
    const provider = selectProvider(model, c.env, () => discovery.manifests);
    events = await provider.stream({
      model: model.model,
      messages: withContext(messages, found),
      temperature: request.temperature,
      top_p: request.top_p,
      max_tokens: maxTokens,
      stop: request.stop == null ? [] : typeof request.stop === 'string' ? [request.stop] : request.stop,
      tools,
      tool_choice: request.tool_choice,
      signal: upstream.signal,
    });
  } catch (error) {
    await meter.release(admission.reservation);
    throw await limitedError(c, error, admission.state);
  }

  if (request.stream) {
    const body = streamCompletion(events, context, sentPromptTokens, upstream, settle, (work) => c.executionCtx.waitUntil(work));
    return new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...headers } });
  }
  try {
    const { body, tally } = await collectCompletion(events, context, sentPromptTokens);
    await settle(tally);
    return c.json(body, 200, headers);
  } catch (error) {
    await meter.release(admission.reservation);
    throw await limitedError(c, error, admission.state);
  }
});
