import { z } from 'zod';
import { MEDIA_PART_TYPES, type MediaPartType } from '../../../../schemas/chat.ts';

/**
 * One served model: the public alias (`llm1`, `llm1-mini`, …) mapped to a provider model. Read from the
 * `MODEL_MAP` var (JSON), so deployments change providers without code.
 */
const ModelEntry = z.object({
  provider: z.enum(['workers-ai', 'openai', 'offline']),
  /** The provider's model id (`@cf/meta/llama-3.1-8b-instruct-fast`, `qwen2.5:7b`, …). */
  model: z.string().min(1).default('offline-rules-v1'),
  /** OpenAI-compatible upstreams: base URL ending in `/v1`. */
  base_url: z.url().optional(),
  /** Name of the secret holding the upstream's API key (never the key itself). */
  api_key_var: z.string().optional(),
  context_window: z.int().positive().default(8192),
  /** Completion budget when the request gives no `max_tokens`. */
  default_max_tokens: z.int().positive().default(1024),
  /** `open`: the model's chat template opens `<think>` itself, so its output starts inside a thought. */
  think: z.enum(['tags', 'open']).default('tags'),
  /** The alias talks to agents (`llm1-agentic`): this model picks the agent and words the answer. */
  agentic: z.boolean().default(false),
  /**
   * The media content parts the model takes (`image_url`, `input_audio`, `file`); text parts always. Unset: an
   * OpenAI-compatible upstream takes them all (it answers for its model), other providers none.
   */
  content_parts: z.array(z.enum(MEDIA_PART_TYPES)).optional(),
});
type ModelEntry = z.infer<typeof ModelEntry>;

const ModelMap = z.record(z.string().min(1), ModelEntry);

export interface ServedModel extends ModelEntry {
  alias: string;
}

/** Parses MODEL_MAP (a JSON string in vars/.dev.vars, or an object); a broken map is a deployment error. */
export function readModelMap(raw: unknown): Map<string, ServedModel> {
  const value = typeof raw === 'string' ? JSON.parse(raw) : raw;
  const parsed = ModelMap.parse(value ?? {});
  return new Map(Object.entries(parsed).map(([alias, entry]) => [alias, { alias, ...entry }]));
}

/** Whether `model` takes a media part of this kind (MODEL_MAP's `content_parts`, else its provider's default). */
export function takesPart(model: ServedModel, type: MediaPartType): boolean {
  return (model.content_parts ?? (model.provider === 'openai' ? MEDIA_PART_TYPES : [])).includes(type);
}
