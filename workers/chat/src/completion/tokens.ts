import { countTokens } from 'gpt-tokenizer';
import type { Tool } from '../../../../schemas/chat.ts';
import type { ProviderMessage } from '../providers/types.ts';

/**
 * Token counts with a real BPE tokenizer (gpt-tokenizer, o200k), used when a provider reports none and to
 * check the context window before calling it. Per message, OpenAI's framing overhead: 4 tokens, plus 3 to
 * prime the reply.
 */
export function countText(text: string): number {
  return text ? countTokens(text) : 0;
}

/**
 * Everything the model is sent: each message with its tool calls or tool result, and the tools' definitions
 * (as the JSON the provider receives; a prompt can hide there as well as in a message).
 */
export function countPrompt(messages: ProviderMessage[], tools: readonly Tool[] = []): number {
  let total = 3;
  for (const tool of tools) total += 4 + countText(JSON.stringify(tool.function));
  for (const message of messages) {
    total += 4 + countText(message.content);
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) total += countText(call.function.name) + countText(call.function.arguments);
    }
  }
  return total;
}
