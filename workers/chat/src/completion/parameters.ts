import { ApiError } from '../../../../lib/http/api-error.ts';
import { CHAT_PARAMETERS } from '../../../../schemas/chat-parameters.ts';
import type { ChatCompletionRequest } from '../../../../schemas/chat.ts';
import type { ServedModel } from '../config/models.ts';
import type { PassedParameters } from '../providers/types.ts';

type ProviderName = ServedModel['provider'];

/** `true`: the provider honours the parameter (itself or through the gateway); a string: why it cannot. */
type Verdict = true | string;

interface Rule {
  /** The value asks for nothing beyond OpenAI's default, so every provider serves it. */
  neutral(value: unknown): boolean;
  verdicts: Record<ProviderName, Verdict>;
}

const never = () => false;
const isEmpty = (value: unknown) => typeof value === 'object' && value !== null && Object.keys(value).length === 0;
const all = (verdict: Verdict): Record<ProviderName, Verdict> => ({ offline: verdict, openai: verdict, 'workers-ai': verdict });
const upstreamOnly = (why: string): Record<ProviderName, Verdict> => ({ offline: why, openai: true, 'workers-ai': why });

const NO_STORE = 'this gateway keeps no completions (no stored completions, evals or distillation)';
const NO_AUDIO = 'the gateway serves text only';

/**
 * Every OpenAI parameter beyond model, messages, temperature, top_p, max_tokens, stream and tools, with what each
 * provider does with it (docs/decisions/0027). A parameter is honoured or refused, never
 * accepted and dropped: a value a provider cannot honour is a 400 naming the parameter.
 */
const RULES: { [K in keyof ChatCompletionRequest]?: Rule } = {
  frequency_penalty: {
    neutral: (v) => v === 0,
    verdicts: { offline: 'the offline engine has one reply per request and no sampling to penalise', openai: true, 'workers-ai': true },
  },
  presence_penalty: {
    neutral: (v) => v === 0,
    verdicts: { offline: 'the offline engine has one reply per request and no sampling to penalise', openai: true, 'workers-ai': true },
  },
  logit_bias: {
    neutral: isEmpty,
    verdicts: {
      offline: 'the offline engine does not sample tokens, so it cannot bias them',
      openai: true,
      'workers-ai': 'Workers AI models take no logit_bias',
    },
  },
  logprobs: { neutral: (v) => v === false, verdicts: all('log probabilities are not relayed by this gateway') },
  seed: { neutral: never, verdicts: all(true) },
  user: { neutral: never, verdicts: all(true) },
  safety_identifier: { neutral: never, verdicts: all(true) },
  prompt_cache_key: { neutral: never, verdicts: upstreamOnly('only an OpenAI-compatible upstream keeps a prompt cache') },
  response_format: { neutral: (v) => (v as { type: string }).type === 'text', verdicts: all(true) },
  parallel_tool_calls: { neutral: (v) => v === true, verdicts: all(true) },
  service_tier: {
    neutral: (v) => v === 'auto' || v === 'default',
    verdicts: all('requests are served in the default tier only'),
  },
  store: { neutral: (v) => v === false, verdicts: all(NO_STORE) },
  metadata: { neutral: isEmpty, verdicts: all(`metadata is kept with stored completions, and ${NO_STORE}`) },
  modalities: { neutral: (v) => (v as string[]).every((m) => m === 'text'), verdicts: all(NO_AUDIO) },
  audio: { neutral: never, verdicts: all(NO_AUDIO) },
  reasoning_effort: { neutral: never, verdicts: upstreamOnly('the model takes no reasoning effort') },
  verbosity: { neutral: never, verdicts: upstreamOnly('the model takes no verbosity') },
  prediction: { neutral: never, verdicts: all('predicted outputs are not supported') },
  web_search_options: { neutral: never, verdicts: all('web search is not a model feature here; use agent_discovery for agents') },
  moderation: { neutral: never, verdicts: all('moderation is not offered by this gateway') },
  prompt_cache_retention: { neutral: never, verdicts: all('prompt cache retention is not configurable here') },
  prompt_cache_options: { neutral: never, verdicts: all('prompt cache options are not configurable here') },
  functions: { neutral: never, verdicts: all('functions is deprecated by OpenAI; send tools') },
  function_call: { neutral: never, verdicts: all('function_call is deprecated by OpenAI; send tool_choice') },
  stop: {
    neutral: (v) => (Array.isArray(v) ? v.length === 0 : false),
    verdicts: { offline: true, openai: true, 'workers-ai': 'Workers AI models take no stop sequences' },
  },
  tool_choice: {
    neutral: (v) => v === 'auto' || v === 'none',
    verdicts: { offline: true, openai: true, 'workers-ai': 'Workers AI cannot be made to call a tool; use "auto" or "none"' },
  },
};

function refuse(param: string, message: string, code = 'unsupported_parameter'): ApiError {
  return new ApiError({ status: 400, message, type: 'invalid_request_error', param, code });
}

/** OpenAI's rules between parameters, whatever the provider. */
function checkCombinations(request: ChatCompletionRequest): void {
  if (request.stream_options != null && !request.stream)
    throw refuse('stream_options', "The 'stream_options' parameter is only allowed when 'stream' is enabled.", 'invalid_parameter');
  if (request.stream_options?.include_obfuscation)
    throw refuse(
      'stream_options.include_obfuscation',
      'stream obfuscation is not offered by this gateway; send include_obfuscation: false',
    );
  if (request.top_logprobs != null && !request.logprobs)
    throw refuse('top_logprobs', "'top_logprobs' needs 'logprobs' set to true.", 'invalid_parameter');
  if (request.response_format?.type === 'json_object') {
    const saysJson = request.messages.some((m) =>
      JSON.stringify(m.content ?? '')
        .toLowerCase()
        .includes('json'),
    );
    if (!saysJson) {
      const message = "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.";
      throw refuse('messages', message, 'invalid_parameter');
    }
  }
}

/**
 * Refuses (400, naming the parameter) any parameter `model`'s provider cannot honour, and returns those the
 * provider is given. Parameters at their neutral value ask for nothing and are not passed on.
 */
export function admitParameters(request: ChatCompletionRequest, model: ServedModel): PassedParameters {
  checkCombinations(request);
  const passed: Record<string, unknown> = {};
  for (const [param, rule] of Object.entries(RULES) as [string, Rule][]) {
    const value = request[param as keyof ChatCompletionRequest];
    if (value === undefined || value === null || rule.neutral(value)) continue;
    const verdict = rule.verdicts[model.provider];
    if (verdict !== true) throw refuse(param, `${param} is not supported by model ${model.alias} (${model.provider} provider): ${verdict}`);
    if (Object.hasOwn(CHAT_PARAMETERS, param)) passed[param] = value;
  }
  return passed as PassedParameters;
}
