import { z } from 'zod';
import { CHAT_PARAMETERS } from './chat-parameters.ts';
import { AgentManifest, CHAT_MAX_CONTENT_CHARS, IntermediateStep } from './chat.ts';

/**
 * Wire contract of OpenAI's Responses API (`POST {llm_base_url}/responses`) as the gateway serves it: the input
 * items, tools and formats the SDKs send, translated to a chat completion beneath (docs/decisions/0140).
 */

const MAX_INPUT_ITEMS = 1000;
const ID = z.string().min(1).max(256);
const Text = z.string().max(CHAT_MAX_CONTENT_CHARS);

const InputText = z.object({ type: z.literal('input_text'), text: Text });
const InputImage = z.object({
  type: z.literal('input_image'),
  image_url: z.string().min(1).nullish(),
  file_id: z.string().nullish(),
  detail: z.enum(['auto', 'low', 'high']).nullish(),
});
const InputFile = z.object({
  type: z.literal('input_file'),
  file_data: z.string().nullish(),
  file_id: z.string().nullish(),
  file_url: z.string().nullish(),
  filename: z.string().nullish(),
});
/** An assistant turn given back as input carries its output parts. */
const OutputText = z.object({ type: z.literal('output_text'), text: Text, annotations: z.array(z.unknown()).nullish() }).loose();
const Refusal = z.object({ type: z.literal('refusal'), refusal: Text });
export const InputContentPart = z.discriminatedUnion('type', [InputText, InputImage, InputFile, OutputText, Refusal]);
export type InputContentPart = z.infer<typeof InputContentPart>;

const MessageItem = z
  .object({
    type: z.literal('message').optional(),
    id: ID.nullish(),
    role: z.enum(['user', 'assistant', 'system', 'developer']),
    content: z.union([Text, z.array(InputContentPart).max(100)]),
    status: z.string().nullish(),
    phase: z.string().nullish(),
  })
  .strict();
const FunctionCallItem = z
  .object({
    type: z.literal('function_call'),
    id: ID.nullish(),
    call_id: ID,
    name: z.string().min(1).max(64),
    arguments: Text,
    status: z.string().nullish(),
  })
  .strict();
const FunctionCallOutputItem = z
  .object({
    type: z.literal('function_call_output'),
    id: ID.nullish(),
    call_id: ID,
    output: z.union([Text, z.array(InputContentPart).max(100)]),
    status: z.string().nullish(),
  })
  .strict();
/** An output item of an earlier response, by id (what the AI SDK sends back while `store` is on). */
const ItemReference = z.object({ type: z.literal('item_reference'), id: ID }).strict();
/** Reasoning and agent steps given back: the gateway's own earlier output, not sent to the model again. */
const ReasoningItem = z.object({ type: z.literal('reasoning'), id: ID.nullish() }).loose();
const McpCallItem = z.object({ type: z.literal('mcp_call'), id: ID.nullish() }).loose();

export const InputItem = z.union([
  MessageItem,
  z.discriminatedUnion('type', [FunctionCallItem, FunctionCallOutputItem, ItemReference, ReasoningItem, McpCallItem]),
]);
export type InputItem = z.infer<typeof InputItem>;

const FunctionTool = z.object({
  type: z.literal('function'),
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'tool names use letters, digits, _ and -, at most 64'),
  description: z.string().max(20_000).nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  strict: z.boolean().nullish(),
});
/** Tools OpenAI runs itself (web search, files, code, …) have no counterpart here: named in the refusal. */
const HostedTool = z.object({ type: z.string().min(1) }).loose();

const TextFormat = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'names use letters, digits, _ and -, at most 64'),
    description: z.string().max(20_000).nullish(),
    schema: z.record(z.string(), z.unknown()),
    strict: z.boolean().nullish(),
  }),
]);

const ToolChoice = z.union([
  z.enum(['none', 'auto', 'required']),
  z.object({ type: z.literal('function'), name: z.string().min(1) }),
  z.object({ type: z.string().min(1) }).loose(),
]);

/** Parameters whose every value but the neutral one is refused; the refusal names them. */
const refusedShape = z.unknown().optional();

export const ResponseRequest = z
  .object({
    model: z.string().min(1),
    input: z.union([Text, z.array(InputItem).max(MAX_INPUT_ITEMS)]),
    instructions: Text.nullish(),
    previous_response_id: ID.nullish(),
    tools: z
      .array(z.union([FunctionTool, HostedTool]))
      .max(128)
      .nullish(),
    tool_choice: ToolChoice.nullish(),
    parallel_tool_calls: z.boolean().nullish(),
    text: z.object({ format: TextFormat.nullish(), verbosity: CHAT_PARAMETERS.verbosity }).strict().nullish(),
    temperature: z.number().min(0).max(2).nullish(),
    top_p: z.number().gt(0).max(1).nullish(),
    max_output_tokens: z.int().min(1).nullish(),
    stream: z.boolean().nullish(),
    stream_options: z.object({ include_obfuscation: z.boolean().nullish() }).strict().nullish(),
    store: z.boolean().nullish(),
    metadata: CHAT_PARAMETERS.metadata,
    user: CHAT_PARAMETERS.user,
    safety_identifier: CHAT_PARAMETERS.safety_identifier,
    prompt_cache_key: CHAT_PARAMETERS.prompt_cache_key,
    service_tier: CHAT_PARAMETERS.service_tier,
    reasoning: z.object({ effort: CHAT_PARAMETERS.reasoning_effort, summary: z.string().nullish() }).strict().nullish(),
    truncation: z.enum(['auto', 'disabled']).nullish(),
    include: z.array(z.string()).max(20).nullish(),
    top_logprobs: z.int().min(0).max(20).nullish(),
    max_tool_calls: z.int().min(1).nullish(),
    background: z.boolean().nullish(),
    conversation: refusedShape,
    prompt: refusedShape,
    prompt_cache_retention: refusedShape,
    prompt_cache_options: refusedShape,
  })
  // As chat completions: a misspelt parameter is an error, never silently dropped.
  .strict();
export type ResponseRequest = z.infer<typeof ResponseRequest>;

export const ResponseUsage = z.object({
  input_tokens: z.int(),
  input_tokens_details: z.object({ cached_tokens: z.int() }),
  output_tokens: z.int(),
  output_tokens_details: z.object({ reasoning_tokens: z.int() }),
  total_tokens: z.int(),
});
export type ResponseUsage = z.infer<typeof ResponseUsage>;

const OutputMessage = z.object({
  type: z.literal('message'),
  id: z.string(),
  status: z.enum(['in_progress', 'completed', 'incomplete']),
  role: z.literal('assistant'),
  content: z.array(
    z.object({ type: z.literal('output_text'), text: z.string(), annotations: z.array(z.unknown()), logprobs: z.array(z.unknown()) }),
  ),
});
const OutputFunctionCall = z.object({
  type: z.literal('function_call'),
  id: z.string(),
  call_id: z.string(),
  name: z.string(),
  arguments: z.string(),
  status: z.enum(['in_progress', 'completed', 'incomplete']),
});
const OutputReasoning = z.object({
  type: z.literal('reasoning'),
  id: z.string(),
  summary: z.array(z.object({ type: z.literal('summary_text'), text: z.string() })),
});
/**
 * A step of an agentic response (`llm1-agentic`), as OpenAI's item for a call a server made on the caller's
 * behalf: `server_label` "rendezvous", `name` the step's kind, `arguments` the step as JSON, `output` its line.
 */
const OutputAgentStep = z.object({
  type: z.literal('mcp_call'),
  id: z.string(),
  status: z.enum(['completed', 'failed']),
  server_label: z.literal('rendezvous'),
  name: z.string(),
  arguments: z.string(),
  output: z.string().nullable(),
  error: z.string().nullable(),
});
export const OutputItem = z.discriminatedUnion('type', [OutputMessage, OutputFunctionCall, OutputReasoning, OutputAgentStep]);
export type OutputItem = z.infer<typeof OutputItem>;

export const ResponseObject = z.object({
  id: z.string(),
  object: z.literal('response'),
  created_at: z.int(),
  status: z.enum(['in_progress', 'completed', 'incomplete', 'failed']),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  incomplete_details: z.object({ reason: z.string() }).nullable(),
  model: z.string(),
  instructions: z.string().nullable(),
  output: z.array(OutputItem),
  output_text: z.string(),
  previous_response_id: z.string().nullable(),
  parallel_tool_calls: z.boolean(),
  tool_choice: z.unknown(),
  tools: z.array(z.unknown()),
  text: z.object({ format: z.unknown() }),
  temperature: z.number().nullable(),
  top_p: z.number().nullable(),
  max_output_tokens: z.int().nullable(),
  store: z.boolean(),
  metadata: z.record(z.string(), z.string()),
  service_tier: z.string(),
  truncation: z.literal('disabled'),
  usage: ResponseUsage.nullable(),
  user: z.string().nullable(),
  /** The gateway's extras, as on chat completions: the agents considered and every step, in order. */
  executable_data: z.array(AgentManifest),
  intermediate_steps: z.array(IntermediateStep),
});
export type ResponseObject = z.infer<typeof ResponseObject>;
