import type { Context } from 'hono';
import { ApiError } from '../../../../lib/http/api-error.ts';
import type { ChatCompletionRequest, Tool } from '../../../../schemas/chat.ts';
import { agenticCompletion } from '../agentic/run.ts';
import { MAX_SESSION_ID_CHARS, SESSION_HEADER } from '../agentic/session-id.ts';
import type { ChatApp } from '../auth/require-key.ts';
import { readModelMap, type ServedModel } from '../config/models.ts';
import { discoverAgents, discoveryContext } from '../discovery/discover.ts';
import { rateLimitHeaders } from '../limits/headers.ts';
import { meterFor } from '../limits/meter.ts';
import type { Admission, LimitState } from '../limits/rolling-window.ts';
import { isAvailable, selectProvider } from '../providers/select.ts';
import type { PassedParameters, ProviderMessage } from '../providers/types.ts';
import { limitedError } from '../routes/respond.ts';
import { completionBudget, type RequestedBudget } from './budget.ts';
import type { CompletionEvent } from './events.ts';
import { type CompletionContext, completionContext } from './frame.ts';
import { checkContentParts, toProviderMessages } from './messages.ts';
import { admitParameters } from './parameters.ts';
import type { CompletionTally } from './tally.ts';
import { countPrompt } from './token-count.ts';

/** What a route asks for: the completion request (chat's own, or Responses' translated), as the caller sent it. */
export interface CompletionInput {
  request: ChatCompletionRequest;
  /** The caller's output budget and the field it came in (`max_tokens`, `max_output_tokens`, …). */
  budget: RequestedBudget | null;
  /** Where the messages are in the caller's request, for errors that name a content part. */
  messagesParam: string;
}

/** A completion admitted and under way: its events, and what rendering it needs to answer and meter it. */
export interface StartedCompletion {
  model: ServedModel;
  events: AsyncIterable<CompletionEvent>;
  context: CompletionContext;
  /** The prompt as sent (with the discovery context, when there was one), counted. */
  promptTokens: number;
  /** The key's x-ratelimit-* headers from its admission. */
  headers: Record<string, string>;
  limitState: LimitState;
  /** Aborted when the client goes away, so the upstream stops. */
  upstream: AbortController;
  /** Records the completion's usage against its reservation (once, however it ends). */
  settle(tally: CompletionTally): Promise<void>;
  /** Gives the reservation back: the completion failed before it produced anything. */
  release(): Promise<void>;
}

/** Puts the discovery context after the caller's leading system messages, where models look for it. */
function withContext(messages: ProviderMessage[], context: ProviderMessage[]): ProviderMessage[] {
  if (!context.length) return messages;
  const at = messages.findIndex((m) => m.role !== 'system');
  return at < 0 ? [...messages, ...context] : [...messages.slice(0, at), ...context, ...messages.slice(at)];
}

/** The served model a request names: 404 `model_not_found` as OpenAI answers, 422 when its provider is not configured here. */
function servedModel(env: ChatEnv, name: string): ServedModel {
  const models = readModelMap(env.MODEL_MAP);
  const model = models.get(name);
  if (!model) {
    const message = `The model \`${name}\` does not exist or you do not have access to it. Served models: ${[...models.keys()].join(', ')}`;
    throw new ApiError({ status: 404, message, type: 'invalid_request_error', param: 'model', code: 'model_not_found' });
  }
  if (!isAvailable(model, env)) {
    const message = `model ${model.alias} is unavailable here: its ${model.provider} provider is not configured`;
    throw new ApiError({ status: 422, message, param: 'model', code: 'model_unavailable' });
  }
  return model;
}

function unsupported(param: string, message: string): ApiError {
  return new ApiError({ status: 400, message, param, code: 'unsupported_parameter' });
}

interface Admitted {
  parameters: PassedParameters;
  /** llm1-agentic (or agent_discovery.execute): the answer is an agent's. */
  agentic: boolean;
  tools: Tool[] | undefined;
  callerSession: string | undefined;
}

/** Everything about the request that can be refused before any work: parameters, content parts, the agentic rules, the session header. */
function admitRequest(input: CompletionInput, model: ServedModel, env: ChatEnv, sessionHeader: string | undefined): Admitted {
  const { request } = input;
  const parameters = admitParameters(request, model);
  checkContentParts(request.messages, model, input.messagesParam);
  const tools = request.tools?.length ? request.tools : undefined;
  const agentic = model.agentic || (typeof request.agent_discovery === 'object' && request.agent_discovery?.execute === true);
  if (agentic && !env.CHAT_AGENT_SEED) {
    const message = `model ${model.alias} is unavailable here: the chat agent has no identity (CHAT_AGENT_SEED)`;
    throw new ApiError({ status: 422, message, param: 'model', code: 'model_unavailable' });
  }
  if (agentic && tools)
    throw unsupported('tools', 'an agentic completion answers with an agent’s reply and calls no tools: send it without tools');
  // The agent's reply is relayed: parameters that shape a model's output would be accepted and not honoured.
  const unheeded = agentic ? Object.keys(parameters).find((name) => name !== 'user' && name !== 'safety_identifier') : undefined;
  if (unheeded) throw unsupported(unheeded, `${unheeded} is not supported by an agentic completion: it answers with an agent’s reply`);
  if (sessionHeader !== undefined && (!sessionHeader.trim() || sessionHeader.length > MAX_SESSION_ID_CHARS)) {
    const message = `${SESSION_HEADER} must be 1 to ${MAX_SESSION_ID_CHARS} characters`;
    throw new ApiError({ status: 400, message, param: SESSION_HEADER, code: 'invalid_session_id' });
  }
  return { parameters, agentic, tools, callerSession: sessionHeader };
}

/** The 429 for a refused admission, saying which limit it reached and when to try again. */
function rateLimited(refused: Extract<Admission, { ok: false }>): ApiError {
  const what = {
    requests: 'requests per minute',
    tokens: 'tokens per minute',
    request_too_large: 'tokens per minute (this one request asks for more)',
  }[refused.limit];
  const limit = refused.limit === 'requests' ? refused.state.limitRequests : refused.state.limitTokens;
  return new ApiError({
    status: 429,
    message: `rate limit reached for this key: ${limit} ${what}`,
    code: refused.limit === 'request_too_large' ? 'request_too_large' : 'rate_limit_exceeded',
    headers: { 'retry-after': String(Math.max(1, Math.ceil(refused.retryAfterMs / 1000))) },
  });
}

/**
 * The one path beneath chat completions and responses: the model, the request's admission (parameters,
 * content parts, agentic rules), the context window and the key's limits, then the provider (or the agent)
 * started. Every refusal is an ApiError with the key's rate-limit headers; a reservation made is released if
 * the start fails.
 */
export async function startCompletion(c: Context<ChatApp>, input: CompletionInput): Promise<StartedCompletion> {
  const { request } = input;
  const key = c.get('key');
  let model: ServedModel;
  let admitted: Admitted;
  let promptTokens: number;
  let maxTokens: number;
  const messages = toProviderMessages(request.messages);
  try {
    model = servedModel(c.env, request.model);
    admitted = admitRequest(input, model, c.env, c.req.header(SESSION_HEADER));
    promptTokens = countPrompt(messages, admitted.tools);
    maxTokens = completionBudget(model, promptTokens, input.budget);
  } catch (error) {
    throw await limitedError(c, error);
  }
  // The caller's end user, for the operator's abuse handling (OpenAI's reason for `user` and `safety_identifier`).
  if (request.user || request.safety_identifier) {
    console.log(JSON.stringify({ chat: 'end_user', key: key.keyId, user: request.user, safety_identifier: request.safety_identifier }));
  }

  const meter = meterFor(c.env, key.keyId);
  const admission = await meter.admit(key.limits, promptTokens + maxTokens);
  if (!admission.ok) throw await limitedError(c, rateLimited(admission), admission.state);

  // Aborted when the client goes away, so the upstream stops: the request's signal fires on disconnect
  // (enable_request_signal), and a cancelled response stream aborts it too.
  const upstream = new AbortController();
  c.req.raw.signal.addEventListener('abort', () => upstream.abort());
  const started = {
    model,
    headers: rateLimitHeaders(admission.state),
    limitState: admission.state,
    upstream,
    release: () => meter.release(admission.reservation),
  };
  try {
    const request: RunRequest = { c, input, model, messages, admitted, maxTokens, signal: upstream.signal };
    const run = admitted.agentic ? agenticEvents(request) : await modelEvents(request);
    const sentPromptTokens = run.promptTokens ?? promptTokens;
    return {
      ...started,
      events: run.events,
      context: run.context,
      promptTokens: sentPromptTokens,
      settle: (tally) => {
        const usage = tally.usage(sentPromptTokens);
        return meter.settle(admission.reservation, model.alias, usage.prompt_tokens, usage.completion_tokens);
      },
    };
  } catch (error) {
    await started.release();
    throw await limitedError(c, error, admission.state);
  }
}

interface Run {
  events: AsyncIterable<CompletionEvent>;
  context: CompletionContext;
  /** The prompt counted again when the discovery context joined it. */
  promptTokens?: number;
}

/** What either way of running an admitted completion needs. */
interface RunRequest {
  c: Context<ChatApp>;
  input: CompletionInput;
  model: ServedModel;
  messages: ProviderMessage[];
  admitted: Admitted;
  maxTokens: number;
  signal: AbortSignal;
}

/** llm1-agentic: the question goes to an agent (agentic/run.ts), its steps and answer are the events. */
function agenticEvents({ c, input, model, messages, admitted, maxTokens, signal }: RunRequest): Run {
  const key = c.get('key');
  return {
    context: completionContext(model, { manifests: [], steps: [] }),
    events: agenticCompletion({
      env: c.env,
      executionCtx: c.executionCtx,
      keyId: key.keyId,
      token: key.token,
      request: input.request,
      messages,
      model,
      provider: selectProvider(model, c.env, () => []),
      callerSession: admitted.callerSession,
      maxTokens,
      signal,
    }),
  };
}

/** A model's completion: agent discovery first when asked for (its context joins the prompt), then the provider. */
async function modelEvents({ c, input, model, messages, admitted, maxTokens, signal }: RunRequest): Promise<Run> {
  const { request } = input;
  const discovery = await discoverAgents(c.env, c.get('key').token, request, messages, signal);
  const found = discoveryContext(discovery.manifests);
  let promptTokens: number | undefined;
  let budget = maxTokens;
  if (found.length) {
    promptTokens = countPrompt(withContext(messages, found), admitted.tools);
    budget = completionBudget(model, promptTokens, input.budget);
  }
  const provider = selectProvider(model, c.env, () => discovery.manifests);
  const events = await provider.stream({
    model: model.model,
    messages: withContext(messages, found),
    temperature: request.temperature ?? 1,
    top_p: request.top_p ?? undefined,
    max_tokens: budget,
    stop: request.stop == null ? [] : typeof request.stop === 'string' ? [request.stop] : request.stop,
    tools: admitted.tools,
    tool_choice: request.tool_choice ?? undefined,
    parameters: admitted.parameters,
    signal,
  });
  return { events, context: completionContext(model, discovery), promptTokens };
}
