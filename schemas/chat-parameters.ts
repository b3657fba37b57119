import { z } from 'zod';

/**
 * OpenAI's chat completion parameters beyond the basics, with OpenAI's ranges. Each is honoured or refused per
 * provider by the chat Worker (workers/chat/src/completion/parameters.ts); none is accepted and ignored.
 */

/** A JSON Schema as callers send it (checked by the provider that uses it). */
const JsonSchemaObject = z.record(z.string(), z.unknown());

export const ResponseFormat = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    json_schema: z.object({
      name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'names use letters, digits, _ and -, at most 64'),
      description: z.string().max(20_000).optional(),
      schema: JsonSchemaObject.optional(),
      strict: z.boolean().nullish(),
    }),
  }),
]);
export type ResponseFormat = z.infer<typeof ResponseFormat>;

/** Parameters whose every value is refused, shape unchecked: the refusal names them (parameters.ts). */
const refusedShape = z.unknown().optional();

export const CHAT_PARAMETERS = {
  frequency_penalty: z.number().min(-2).max(2).nullish(),
  presence_penalty: z.number().min(-2).max(2).nullish(),
  logit_bias: z
    .record(z.string().regex(/^\d+$/, 'keys are token ids'), z.number().min(-100).max(100))
    .refine((bias) => Object.keys(bias).length <= 300, 'at most 300 token ids')
    .nullish(),
  logprobs: z.boolean().nullish(),
  top_logprobs: z.int().min(0).max(20).nullish(),
  seed: z.int().nullish(),
  user: z.string().max(256).nullish(),
  safety_identifier: z.string().max(64).nullish(),
  prompt_cache_key: z.string().max(1024).nullish(),
  response_format: ResponseFormat.nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  service_tier: z.enum(['auto', 'default', 'flex', 'scale', 'priority']).nullish(),
  store: z.boolean().nullish(),
  metadata: z
    .record(z.string().max(64), z.string().max(512))
    .refine((pairs) => Object.keys(pairs).length <= 16, 'at most 16 pairs')
    .nullish(),
  modalities: z.array(z.enum(['text', 'audio'])).nullish(),
  reasoning_effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']).nullish(),
  verbosity: z.enum(['low', 'medium', 'high']).nullish(),
  audio: refusedShape,
  prediction: refusedShape,
  web_search_options: refusedShape,
  moderation: refusedShape,
  prompt_cache_retention: refusedShape,
  prompt_cache_options: refusedShape,
  functions: refusedShape,
  function_call: refusedShape,
};
