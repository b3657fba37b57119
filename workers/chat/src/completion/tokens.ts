import { countTokens } from 'gpt-tokenizer';
import type { ProviderMessage } from '../providers/types.ts';

/**
 * Token counts with a real BPE tokenizer (gpt-tokenizer, o200k), used when a provider reports none and to
 * check the context window before calling it. Per message, OpenAI's framing overhead: 4 tokens, plus 3 to
 * prime the reply.
 */
export function countText(text: string): number {
  return text ? countTokens(text) : 0;
}

export function countPrompt(messages: ProviderMessage[]): number {
  let total = 3;
  for (const message of messages) {
    total += 4 + countText(message.content);
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) total += countText(call.function.name) + countText(call.function.arguments);
    }
  }
  return total;
}
