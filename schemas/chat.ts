import { z } from 'zod';
import { CHAT_PARAMETERS } from './chat-parameters.ts';

/**
 * Wire contract of the chat completion API (`{llm_base_url}` = `…/v1`): OpenAI's chat format plus the spec's
 * extras (`thought`, `stop_reason`, `executable_data`, `intermediate_steps`) and the gateway's `agent_discovery`.
 */

/**
 * Caps on what one request may carry (each counted as prompt tokens too); the whole body is capped at
 * CHAT_MAX_BODY_BYTES before it is read.
 */
export const CHAT_MAX_BODY_BYTES = 4 * 1024 * 1024;
const CHAT_MAX_MESSAGES = 1000;
export const CHAT_MAX_CONTENT_CHARS = 500_000;
const CHAT_MAX_TOOL_DESCRIPTION_CHARS = 20_000;

const TextPart = z.object({ type: z.literal('text'), text: z.string() }).loose();
/** Media parts, as OpenAI's chat API takes them: passed to providers that take them (the model's `content_parts`), refused elsewhere. */
const ImagePart = z.object({
  type: z.literal('image_url'),
  image_url: z.object({ url: z.string().min(1), detail: z.enum(['auto', 'low', 'high']).nullish() }),
});
const AudioPart = z.object({
  type: z.literal('input_audio'),
  input_audio: z.object({ data: z.string().min(1), format: z.string().min(1) }),
});
const FilePart = z.object({
  type: z.literal('file'),
  file: z.object({ file_data: z.string().nullish(), file_id: z.string().nullish(), filename: z.string().nullish() }),
});
export const ContentPart = z.discriminatedUnion('type', [TextPart, ImagePart, AudioPart, FilePart]);
export type ContentPart = z.infer<typeof ContentPart>;
/** The kinds of media part (every part but text); a model lists those it takes in MODEL_MAP's `content_parts`. */
export const MEDIA_PART_TYPES = ['image_url', 'input_audio', 'file'] as const;
export type MediaPartType = (typeof MEDIA_PART_TYPES)[number];

const textLength = (parts: ContentPart[]) => parts.reduce((sum, part) => sum + (part.type === 'text' ? part.text.length : 0), 0);

/** Message content: a string, or OpenAI's array of content parts (the SDKs send either). */
const MessageContent = z.union([
  z.string().max(CHAT_MAX_CONTENT_CHARS),
  z
    .array(ContentPart)
    .max(100)
    .refine((parts) => textLength(parts) <= CHAT_MAX_CONTENT_CHARS, {
      message: `the text parts together must be at most ${CHAT_MAX_CONTENT_CHARS} characters`,
    }),
]);

export const ToolCall = z.object({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.object({ name: z.string().min(1).max(64), arguments: z.string().max(CHAT_MAX_CONTENT_CHARS) }),
});
export type ToolCall = z.infer<typeof ToolCall>;

const SystemMessage = z.object({ role: z.literal('system'), content: MessageContent, name: z.string().optional() });
/** OpenAI's newer SDKs name the system role `developer`; it is treated as `system`. */
const DeveloperMessage = z.object({ role: z.literal('developer'), content: MessageContent, name: z.string().optional() });
const UserMessage = z.object({ role: z.literal('user'), content: MessageContent, name: z.string().optional() });
const AssistantMessage = z.object({
  role: z.literal('assistant'),
  content: MessageContent.nullish(),
  name: z.string().optional(),
  tool_calls: z.array(ToolCall).nullish(),
  reasoning_content: z.string().nullish(),
});
const ToolMessage = z.object({ role: z.literal('tool'), content: MessageContent, tool_call_id: z.string().min(1) });

export const ChatMessage = z.discriminatedUnion('role', [SystemMessage, DeveloperMessage, UserMessage, AssistantMessage, ToolMessage]);
export type ChatMessage = z.infer<typeof ChatMessage>;

export const Tool = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'tool names use letters, digits, _ and -, at most 64'),
    description: z.string().max(CHAT_MAX_TOOL_DESCRIPTION_CHARS).optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullish(),
  }),
});
export type Tool = z.infer<typeof Tool>;

export const ToolChoice = z.union([
  z.enum(['none', 'auto', 'required']),
  z.object({ type: z.literal('function'), function: z.object({ name: z.string().min(1) }) }),
]);
export type ToolChoice = z.infer<typeof ToolChoice>;

/**
 * `agent_discovery: true` or `{ enabled, limit, query, execute }`: search the registry for agents that fit the
 * conversation; with `execute`, also send the question to the best one and answer with its reply (as `llm1-agentic`).
 */
const AgentDiscovery = z.union([
  z.boolean(),
  z.object({
    enabled: z.boolean().default(true),
    limit: z.int().min(1).max(10).default(3),
    query: z.string().min(1).max(1000).optional(),
    execute: z.boolean().default(false),
  }),
]);

export const ChatCompletionRequest = z
  .object({
    model: z.string().min(1),
    messages: z.array(ChatMessage).min(1).max(CHAT_MAX_MESSAGES),
    // null, as OpenAI takes it, means the default, for every optional parameter (docs/decisions/0142).
    temperature: z.number().min(0).max(2).nullish(),
    top_p: z.number().gt(0).max(1).nullish(),
    max_tokens: z.int().min(1).nullish(),
    max_completion_tokens: z.int().min(1).nullish(),
    stream: z.boolean().nullish(),
    stream_options: z.object({ include_usage: z.boolean().optional(), include_obfuscation: z.boolean().optional() }).strict().nullish(),
    stop: z.union([z.string().min(1), z.array(z.string().min(1)).max(4)]).nullish(),
    n: z.literal(1, 'only n = 1 is supported').nullish(),
    tools: z.array(Tool).max(128).nullish(),
    tool_choice: ToolChoice.nullish(),
    agent_discovery: AgentDiscovery.nullish(),
    ...CHAT_PARAMETERS,
  })
  // OpenAI refuses what it does not know: a misspelt parameter is an error, never silently dropped.
  .strict()
  .superRefine((request, ctx) => {
    const callIds = new Set<string>();
    request.messages.forEach((message, index) => {
      if (message.role === 'assistant') for (const call of message.tool_calls ?? []) callIds.add(call.id);
      if (message.role === 'tool' && !callIds.has(message.tool_call_id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['messages', index, 'tool_call_id'],
          message: 'a tool message must answer a tool call made by an earlier assistant message',
        });
      }
    });
    if (
      request.tool_choice &&
      typeof request.tool_choice === 'object' &&
      !request.tools?.some((t) => t.function.name === (request.tool_choice as { function: { name: string } }).function.name)
    ) {
      ctx.addIssue({ code: 'custom', path: ['tool_choice'], message: 'tool_choice names a function that is not in tools' });
    }
    if (request.tool_choice && !request.tools?.length && request.tool_choice !== 'none') {
      ctx.addIssue({ code: 'custom', path: ['tool_choice'], message: 'tool_choice needs tools' });
    }
  });
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequest>;

export const Usage = z.object({
  prompt_tokens: z.int(),
  completion_tokens: z.int(),
  total_tokens: z.int(),
  prompt_tokens_details: z.object({ cached_tokens: z.int() }).nullable(),
  completion_tokens_details: z.object({ reasoning_tokens: z.int() }).nullable(),
  reasoning_tokens: z.int(),
});
export type Usage = z.infer<typeof Usage>;

/** What an agent found by discovery accepts and does, read from its registry record and README. */
export const AgentManifest = z.object({
  type: z.literal('agent_manifest'),
  address: z.string(),
  name: z.string(),
  status: z.string(),
  description: z.string(),
  use_cases: z.array(z.string()),
  accepts: z.array(z.object({ parameter: z.string(), description: z.string() })),
  tags: z.array(z.string()),
});
export type AgentManifest = z.infer<typeof AgentManifest>;

/** The agent a step is about: its address, registry name and handle (null when it has none). */
const StepAgent = z.object({ address: z.string(), name: z.string(), handle: z.string().nullable() });
export type StepAgent = z.infer<typeof StepAgent>;

/** llm1-agentic's trust tiers, most trusted first (docs/decisions/0121). */
export const TRUST_TIERS = ['verified', 'yours', 'established', 'new', 'offline'] as const;

/**
 * What llm1-agentic knows of an agent beyond its own words: `verified` (featured by the operator), `own` (the
 * caller's own agent), `live` (the registry’s liveness), interactions the registry counted from other accounts’ agents (last 30 days), days registered.
 */
const StepTrust = z.object({
  tier: z.enum(TRUST_TIERS),
  verified: z.boolean(),
  own: z.boolean(),
  live: z.boolean(),
  interactions: z.int(),
  age_days: z.int(),
});
export type StepTrust = z.infer<typeof StepTrust>;

/** Every step has a line for people (`text`) and the time it happened (`at`, ISO 8601). */
const stepBase = { text: z.string(), at: z.string() };

/**
 * One step of the work behind an answer, in order: the discovery search and the choice (`agent_discovery`),
 * then, when the completion talks to the agent (`llm1-agentic`, `agent_discovery.execute`), the message sent,
 * the agent's acknowledgement, and its answer or why there was none. Agents' own text appears only in `text`
 * of `sent` (what was sent) and `answered` (what came back).
 */
export const IntermediateStep = z.discriminatedUnion('step', [
  z.object({
    step: z.literal('search'),
    ...stepBase,
    query: z.string(),
    candidates: z.array(z.object({ address: z.string(), name: z.string(), status: z.string() })),
    total: z.int(),
    error: z.string().nullable(),
  }),
  /**
   * `choice`: the addresses kept (discovery) or the one agent talked to (agentic, also as `agent`); `trust`: the
   * evidence it was ranked by (agentic, when it was chosen from a search).
   */
  z.object({
    step: z.literal('choose'),
    ...stepBase,
    choice: z.array(z.string()),
    reason: z.string(),
    agent: StepAgent.nullable(),
    trust: StepTrust.optional(),
  }),
  z.object({ step: z.literal('sent'), ...stepBase, agent: StepAgent, session: z.string(), msg_id: z.string() }),
  z.object({ step: z.literal('acknowledged'), ...stepBase, agent: StepAgent, msg_id: z.string() }),
  /** `late`: the answer to an earlier message of the session, which came after that request's deadline. */
  z.object({ step: z.literal('answered'), ...stepBase, agent: StepAgent, msg_id: z.string().nullable(), late: z.boolean() }),
  z.object({ step: z.literal('timed_out'), ...stepBase, agent: StepAgent, msg_id: z.string(), deadline_ms: z.int() }),
  /** `reason`: a code safe to show (`no_answer`, `timeout`, `http_503`, `url_refused`, `unresolvable`, …). */
  z.object({ step: z.literal('unreachable'), ...stepBase, agent: StepAgent, reason: z.string() }),
  /** Nothing was sent: no agent fits, an unknown handle, the search failed. */
  z.object({ step: z.literal('failed'), ...stepBase, agent: StepAgent.nullable(), reason: z.string() }),
]);
export type IntermediateStep = z.infer<typeof IntermediateStep>;

export const FinishReason = z.enum(['stop', 'length', 'tool_calls', 'content_filter']);
export type FinishReason = z.infer<typeof FinishReason>;

const ResponseMessage = z.object({
  role: z.literal('assistant'),
  content: z.string().nullable(),
  refusal: z.string().nullable(),
  tool_calls: z.array(ToolCall).nullable(),
  reasoning_content: z.string().nullable(),
  annotations: z.array(z.unknown()),
  audio: z.null(),
  function_call: z.null(),
});

/** Fields every response and chunk carries beside its choices. */
const ResponseFrame = {
  id: z.string(),
  created: z.int(),
  model: z.string(),
  system_fingerprint: z.string(),
  service_tier: z.string(),
};

export const ChatCompletion = z.object({
  ...ResponseFrame,
  object: z.literal('chat.completion'),
  choices: z.array(
    z.object({
      index: z.int(),
      message: ResponseMessage,
      finish_reason: FinishReason,
      stop_reason: z.union([z.string(), z.int()]).nullable(),
      logprobs: z.null(),
    }),
  ),
  usage: Usage,
  executable_data: z.array(AgentManifest),
  intermediate_steps: z.array(IntermediateStep),
  metadata: z.record(z.string(), z.unknown()),
});
export type ChatCompletion = z.infer<typeof ChatCompletion>;

const ChunkDelta = z.object({
  role: z.literal('assistant').optional(),
  content: z.string().optional(),
  reasoning_content: z.string().optional(),
  tool_calls: z
    .array(
      z.object({
        index: z.int(),
        id: z.string().optional(),
        type: z.literal('function').optional(),
        function: z.object({ name: z.string().optional(), arguments: z.string().optional() }),
      }),
    )
    .optional(),
});

export const ChatCompletionChunk = z.object({
  ...ResponseFrame,
  object: z.literal('chat.completion.chunk'),
  choices: z.array(
    z.object({
      index: z.int(),
      delta: ChunkDelta,
      finish_reason: FinishReason.nullable(),
      stop_reason: z.union([z.string(), z.int()]).nullable().optional(),
      logprobs: z.null(),
    }),
  ),
  thought: z.string().optional(),
  /** Only with `stream_options.include_usage`: null on every chunk but the last, which has `choices: []`. */
  usage: Usage.nullish(),
  executable_data: z.array(AgentManifest).optional(),
  intermediate_steps: z.array(IntermediateStep).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type ChatCompletionChunk = z.infer<typeof ChatCompletionChunk>;

export const ModelList = z.object({
  object: z.literal('list'),
  data: z.array(
    z.object({
      id: z.string(),
      object: z.literal('model'),
      created: z.int(),
      owned_by: z.string(),
      provider: z.string(),
      context_window: z.int(),
      available: z.boolean(),
    }),
  ),
});
export type ModelList = z.infer<typeof ModelList>;

/** `GET /v1/usage`: the calling key's recorded token usage, in total and per model. */
export const UsageReport = z.object({
  object: z.literal('usage'),
  key_id: z.string(),
  totals: z.object({ requests: z.int(), prompt_tokens: z.int(), completion_tokens: z.int(), total_tokens: z.int() }),
  by_model: z.array(
    z.object({ model: z.string(), requests: z.int(), prompt_tokens: z.int(), completion_tokens: z.int(), total_tokens: z.int() }),
  ),
  limits: z.object({ requests_per_minute: z.int(), tokens_per_minute: z.int() }),
});
export type UsageReport = z.infer<typeof UsageReport>;
