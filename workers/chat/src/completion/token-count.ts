import { countTokens, encode } from 'gpt-tokenizer';
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

/** The text in spans the BPE takes in linear time: as written, but long runs cut into RUN_PIECE pieces. */
function* spans(text: string): Generator<string> {
  let from = 0;
  for (const run of text.matchAll(LONG_RUN)) {
    if (run.index > from) yield text.slice(from, run.index);
    for (const [piece] of run[0].matchAll(PIECE)) yield piece;
    from = run.index + run[0].length;
  }
  if (from < text.length) yield text.slice(from);
}

/**
 * Token counts with a real BPE tokenizer (gpt-tokenizer, o200k), used when a provider reports none and to
 * check the context window before calling it. Per message, OpenAI's framing overhead: 4 tokens, plus 3 to
 * prime the reply.
 */
export function countText(text: string): number {
  let total = 0;
  for (const span of spans(text)) total += countTokens(span);
  return total;
}

/** The text's tokens (what the offline engine streams), cut into spans as countText counts them. */
export function encodeText(text: string): number[] {
  const tokens: number[] = [];
  for (const span of spans(text)) for (const token of encode(span)) tokens.push(token);
  return tokens;
}

/**
 * What one media part (image, audio, file) counts, whatever its size: providers count media by their own rules
 * (an OpenAI image costs 85 to about 1,100 tokens by detail and size), so the window check takes one figure.
 */
const MEDIA_PART_TOKENS = 1000;

/**
 * Everything the model is sent: each message with its tool calls or tool result, and the tools' definitions
 * (as the JSON the provider receives; a prompt can hide there as well as in a message).
 */
export function countPrompt(messages: ProviderMessage[], tools: readonly Tool[] = []): number {
  let total = 3;
  for (const tool of tools) total += 4 + countText(JSON.stringify(tool.function));
  for (const message of messages) {
    total += 4 + countText(message.content);
    if (message.role === 'user') total += (message.parts ?? []).filter((part) => part.type !== 'text').length * MEDIA_PART_TOKENS;
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) total += countText(call.function.name) + countText(call.function.arguments);
    }
  }
  return total;
}
