import { decode } from 'gpt-tokenizer';
import { Hono } from 'hono';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { validate } from '../../../../lib/http/validate.ts';
import { CHAT_MAX_BODY_BYTES } from '../../../../schemas/chat.ts';
import { EMBEDDING_MAX_INPUT_TOKENS, type EmbeddingList, EmbeddingRequest } from '../../../../schemas/embeddings.ts';
import type { ChatApp } from '../auth/require-key.ts';
import { countText } from '../completion/token-count.ts';
import { type EmbeddingModel, readEmbeddingModels } from '../config/embedding-models.ts';
import { embedderFor } from '../embeddings/embedders.ts';
import { base64Floats, shorten } from '../embeddings/encode.ts';
import { rateLimitHeaders } from '../limits/headers.ts';
import { meterFor } from '../limits/meter.ts';
import { limitedError } from './respond.ts';

const validRequest = validate('json', EmbeddingRequest, undefined, CHAT_MAX_BODY_BYTES);

function refuse(status: 400 | 404 | 422, param: string, message: string, code: string): ApiError {
  return new ApiError({ status, message, type: 'invalid_request_error', param, code });
}

/** The inputs as texts: token ids (o200k, as OpenAI's own tokenizer for its newer models) decoded. */
function texts(input: EmbeddingRequest['input']): string[] {
  const list = typeof input === 'string' ? [input] : typeof input[0] === 'number' ? [input as number[]] : (input as (string | number[])[]);
  return list.map((item, index) => {
    if (typeof item === 'string') return item;
    try {
      return decode(item);
    } catch {
      throw refuse(400, `input.${index}`, `input[${index}] has token ids the o200k tokenizer does not know`, 'invalid_parameter');
    }
  });
}

/** The model a request names and the length its vectors will have: `dimensions` only where the model can shorten them. */
function modelAndDimensions(env: ChatEnv, request: EmbeddingRequest): { model: EmbeddingModel; dimensions: number } {
  const models = readEmbeddingModels(env.EMBEDDING_MODEL_MAP);
  const model = models.get(request.model);
  if (!model) {
    const message = `The model \`${request.model}\` does not exist or you do not have access to it. Embedding models: ${[...models.keys()].join(', ')}`;
    throw refuse(404, 'model', message, 'model_not_found');
  }
  const dimensions = request.dimensions ?? model.dimensions;
  if (dimensions !== model.dimensions && !(model.shortenable && dimensions < model.dimensions)) {
    const can = model.shortenable ? `at most ${model.dimensions}` : `${model.dimensions} only (its vectors cannot be shortened)`;
    throw refuse(
      400,
      'dimensions',
      `model ${model.alias} makes vectors of ${can}; dimensions ${dimensions} is not possible`,
      'unsupported_dimensions',
    );
  }
  return { model, dimensions };
}

/**
 * POST /v1/embeddings: the offline word vectors (the registry's) or Workers AI, by EMBEDDING_MODEL_MAP. Counted
 * against the key's limits like a completion with no output: the inputs' tokens are its prompt.
 */
export const embeddings = new Hono<ChatApp>().post('/embeddings', validRequest, async (c) => {
  const request = c.req.valid('json');
  const key = c.get('key');
  let inputs: string[];
  let tokens: number[];
  let chosen: ReturnType<typeof modelAndDimensions>;
  let embed: NonNullable<ReturnType<typeof embedderFor>>;
  try {
    chosen = modelAndDimensions(c.env, request);
    const embedder = embedderFor(chosen.model, c.env);
    if (!embedder) {
      throw refuse(
        422,
        'model',
        `model ${chosen.model.alias} is unavailable here: its ${chosen.model.provider} provider is not configured`,
        'model_unavailable',
      );
    }
    embed = embedder;
    inputs = texts(request.input);
    tokens = inputs.map((text) => countText(text));
    const long = tokens.findIndex((count) => count > EMBEDDING_MAX_INPUT_TOKENS);
    if (long >= 0) {
      const message = `input[${long}] has ${tokens[long]} tokens; an input may have at most ${EMBEDDING_MAX_INPUT_TOKENS}`;
      throw refuse(400, `input.${long}`, message, 'context_length_exceeded');
    }
  } catch (error) {
    throw await limitedError(c, error);
  }
  const promptTokens = tokens.reduce((sum, count) => sum + count, 0);
  const meter = meterFor(c.env, key.keyId);
  const admission = await meter.admit(key.limits, promptTokens);
  if (!admission.ok) {
    const refusal = new ApiError({
      status: 429,
      message: `rate limit reached for this key (${admission.limit === 'requests' ? 'requests' : 'tokens'} per minute)`,
      code: admission.limit === 'request_too_large' ? 'request_too_large' : 'rate_limit_exceeded',
      headers: { 'retry-after': String(Math.max(1, Math.ceil(admission.retryAfterMs / 1000))) },
    });
    throw await limitedError(c, refusal, admission.state);
  }
  let vectors: number[][];
  try {
    vectors = await embed(inputs, c.req.raw.signal);
  } catch (error) {
    await meter.release(admission.reservation);
    throw await limitedError(c, error, admission.state);
  }
  await meter.settle(admission.reservation, chosen.model.alias, promptTokens, 0);
  const base64 = request.encoding_format === 'base64';
  const body: EmbeddingList = {
    object: 'list',
    data: vectors.map((vector, index) => {
      const sized = chosen.dimensions < vector.length ? shorten(vector, chosen.dimensions) : vector;
      return { object: 'embedding', index, embedding: base64 ? base64Floats(sized) : sized };
    }),
    model: chosen.model.alias,
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  };
  return c.json(body, 200, rateLimitHeaders(admission.state));
});
