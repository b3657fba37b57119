import type { ChatCompletionRequest } from '../../../../schemas/chat.ts';
import type { ServedModel } from '../config/models.ts';
import { ApiError } from '../../../../lib/http/api-error.ts';

/** The caller's output budget and the field it came in, which a refusal names. */
export interface RequestedBudget {
  tokens: number;
  param: string;
}

/** The caller's budget, as OpenAI reads it (`max_completion_tokens`, else the older `max_tokens`), and the field it came in. */
export function requestedBudget(request: ChatCompletionRequest): RequestedBudget | null {
  if (request.max_completion_tokens != null) return { tokens: request.max_completion_tokens, param: 'max_completion_tokens' };
  return request.max_tokens == null ? null : { tokens: request.max_tokens, param: 'max_tokens' };
}

/**
 * The completion budget: the caller's, else the model's default, within its context window. A prompt that
 * fills the window, or an explicit budget that cannot fit beside it, is a 422.
 */
export function completionBudget(model: ServedModel, promptTokens: number, requested: RequestedBudget | null): number {
  const room = model.context_window - promptTokens;
  if (room <= 0) {
    throw new ApiError({
      status: 422,
      message: `the prompt has ${promptTokens} tokens; model ${model.alias} has a context window of ${model.context_window}`,
      param: 'messages',
      code: 'context_length_exceeded',
    });
  }
  if (requested) {
    if (requested.tokens > room) {
      throw new ApiError({
        status: 422,
        message: `${requested.param} ${requested.tokens} plus the prompt's ${promptTokens} tokens exceed the ${model.context_window}-token context window of ${model.alias}`,
        param: requested.param,
        code: 'context_length_exceeded',
      });
    }
    return requested.tokens;
  }
  return Math.min(model.default_max_tokens, room);
}
