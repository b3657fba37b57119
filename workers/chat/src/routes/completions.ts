import { Hono } from 'hono';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { validate } from '../../../../lib/http/validate.ts';
import { CHAT_MAX_BODY_BYTES, ChatCompletionRequest } from '../../../../schemas/chat.ts';
import type { ChatApp } from '../auth/require-key.ts';
import { completionBudget, requestedBudget } from '../completion/budget.ts';
import { completionContext } from '../completion/frame.ts';
import { collectCompletion } from '../completion/json-response.ts';
import { toProviderMessages } from '../completion/messages.ts';
import { admitParameters } from '../completion/parameters.ts';
import { streamCompletion } from '../completion/stream-response.ts';
import type { CompletionTally } from '../completion/tally.ts';
import { countPrompt } from '../completion/token-count.ts';
import { readModelMap } from '../config/models.ts';
import { discoverAgents, discoveryContext } from '../discovery/discover.ts';
import { rateLimitHeaders } from '../limits/headers.ts';
import { meterFor } from '../limits/meter.ts';
import { isAvailable, selectProvider } from '../providers/select.ts';
import type { ProviderMessage } from '../providers/types.ts';
import { agenticCompletion } from '../agentic/run.ts';
import { MAX_SESSION_ID_CHARS, SESSION_HEADER } from '../agentic/session-id.ts';
import type { CompletionEvent } from '../completion/events.ts';
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
  let parameters: ReturnType<typeof admitParameters>;
  try {
    parameters = admitParameters(request, model);
  } catch (error) {
    throw await limitedError(c, error);
  }
  // The caller's end user, for the operator's abuse handling (OpenAI's reason for `user` and `safety_identifier`).
  if (request.user || request.safety_identifier) {
    console.log(JSON.stringify({ chat: 'end_user', key: key.keyId, user: request.user, safety_identifier: request.safety_identifier }));
  }
  const messages = toProviderMessages(request.messages);
  const tools = request.tools?.length ? request.tools : undefined;
  // llm1-agentic (or agent_discovery.execute): the answer is an agent's, so the caller's tools have no part in it.
  const agentic = model.agentic || (typeof request.agent_discovery === 'object' && request.agent_discovery.execute);
  if (agentic && !c.env.CHAT_AGENT_SEED) {
    const message = `model ${model.alias} is unavailable here: the chat agent has no identity (CHAT_AGENT_SEED)`;
    throw await limitedError(c, new ApiError({ status: 422, message, param: 'model', code: 'model_unavailable' }));
  }
  if (agentic && tools) {
    const message = 'an agentic completion answers with an agent’s reply and calls no tools: send it without tools';
    throw await limitedError(c, new ApiError({ status: 400, message, param: 'tools', code: 'unsupported_parameter' }));
  }
  // The agent's reply is relayed: parameters that shape a model's output would be accepted and not honoured.
  const unheeded = agentic ? Object.keys(parameters).find((name) => name !== 'user' && name !== 'safety_identifier') : undefined;
  if (unheeded) {
    const message = `${unheeded} is not supported by an agentic completion: it answers with an agent’s reply`;
    throw await limitedError(c, new ApiError({ status: 400, message, param: unheeded, code: 'unsupported_parameter' }));
  }
  const callerSession = c.req.header(SESSION_HEADER);
  if (callerSession !== undefined && (!callerSession.trim() || callerSession.length > MAX_SESSION_ID_CHARS)) {
    const message = `${SESSION_HEADER} must be 1 to ${MAX_SESSION_ID_CHARS} characters`;
    throw await limitedError(c, new ApiError({ status: 400, message, param: SESSION_HEADER, code: 'invalid_session_id' }));
  }
  const promptTokens = countPrompt(messages, tools);
  let maxTokens: number;
  try {
    maxTokens = completionBudget(model, promptTokens, requestedBudget(request));
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

  let events: AsyncIterable<CompletionEvent>;
  let context: ReturnType<typeof completionContext>;
  try {
    if (agentic) {
      context = completionContext(model, { manifests: [], steps: [] });
      events = agenticCompletion({
        env: c.env,
        executionCtx: c.executionCtx,
        keyId: key.keyId,
        token: key.token,
        request,
        messages,
        model,
        provider: selectProvider(model, c.env, () => []),
        callerSession,
        maxTokens,
        signal: upstream.signal,
      });
    } else {
      const discovery = await discoverAgents(c.env, key.token, request, messages, upstream.signal);
      context = completionContext(model, discovery);
      const found = discoveryContext(discovery.manifests);
      if (found.length) {
        sentPromptTokens = countPrompt(withContext(messages, found), tools);
        maxTokens = completionBudget(model, sentPromptTokens, requestedBudget(request));
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
        parameters,
        signal: upstream.signal,
      });
    }
  } catch (error) {
    await meter.release(admission.reservation);
    throw await limitedError(c, error, admission.state);
  }

  if (request.stream) {
    const includeUsage = request.stream_options?.include_usage === true;
    const body = streamCompletion(
      events,
      context,
      sentPromptTokens,
      upstream,
      settle,
      (work) => c.executionCtx.waitUntil(work),
      includeUsage,
    );
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
