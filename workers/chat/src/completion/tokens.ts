import { countTokens } from 'gpt-tokenizer';
import type { Tool } from '../../../../schemas/chat.ts';
import type { ProviderMessage } from '../providers/types.ts';

/**
 * Runs of RUN_PIECE or more characters without a break (no white space, or only white space) are counted in
 * pieces of that size: the BPE's cost grows with the square of one run's length and worse (32,000 emoji in a
 * row took 66 s of CPU, 32,000 spaces 2 s), while a cut inside a run changes its count by a token at most.
 */
const RUN_PIECE = 128;
const LONG_RUN = new RegExp(`\\S{${RUN_PIECE},}|\\s{${RUN_PIECE},}`, 'gu');
const PIECE = new RegExp(`[\\s\\S]{1,${RUN_PIECE}}`, 'gu');

const countSpan = (text: string) => (text ? countTokens(text) : 0);

/**
 * Token counts with a real BPE tokenizer (gpt-tokenizer, o200k), used when a provider reports none and to
 * check the context window before calling it. Per message, OpenAI's framing overhead: 4 tokens, plus 3 to
 * prime the reply.
 */
export function countText(text: string): number {
  if (!text) return 0;
  let total = 0;
  let from = 0;
  for (const run of text.matchAll(LONG_RUN)) {
    total += countSpan(text.slice(from, run.index));
    for (const [piece] of run[0].matchAll(PIECE)) total += countTokens(piece);
    from = run.index + run[0].length;
  }
  return total + countSpan(text.slice(from));
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
