import type { ServedModel } from '../config/models.ts';
import { ApiError } from '../../../../lib/http/api-error.ts';

/**
 * The completion budget: the caller's max_tokens, else the model's default, within its context window.
 * A prompt that fills the window, or an explicit max_tokens that cannot fit beside it, is a 422.
 */
export function completionBudget(model: ServedModel, promptTokens: number, requested: number | null | undefined): number {
  const room = model.context_window - promptTokens;
  if (room <= 0) {
    throw new ApiError({
      status: 422,
      message: `the prompt has ${promptTokens} tokens; model ${model.alias} has a context window of ${model.context_window}`,
      param: 'messages',
      code: 'context_length_exceeded',
    });
  }
  if (requested != null) {
    if (requested > room) {
      throw new ApiError({
        status: 422,
        message: `max_tokens ${requested} plus the prompt's ${promptTokens} tokens exceed the ${model.context_window}-token context window of ${model.alias}`,
        param: 'max_tokens',
        code: 'context_length_exceeded',
      });
    }
    return requested;
  }
  return Math.min(model.default_max_tokens, room);
}
