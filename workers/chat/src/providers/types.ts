import type { CHAT_PARAMETERS } from '../../../../schemas/chat-parameters.ts';
import type { ChatCompletionRequest, ContentPart, FinishReason, Tool, ToolChoice } from '../../../../schemas/chat.ts';

/** The OpenAI parameters a provider is given: only those completion/parameters.ts admitted for it, never null. */
export type PassedParameters = { [K in keyof typeof CHAT_PARAMETERS]?: NonNullable<ChatCompletionRequest[K]> };

/**
 * A conversation message as providers receive it: its text as `content`, tool calls and results kept; a user
 * message with media the model takes also has all its `parts` (wireMessages sends those instead of the text).
 */
export type ProviderMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string; parts?: ContentPart[] }
  | { role: 'assistant'; content: string; tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[] }
  | { role: 'tool'; content: string; tool_call_id: string };

export interface ProviderRequest {
  /** The provider's own model id. */
  model: string;
  messages: ProviderMessage[];
  temperature: number;
  top_p?: number;
  max_tokens: number;
  stop: string[];
  tools?: Tool[];
  tool_choice?: ToolChoice;
  parameters: PassedParameters;
  /** Aborted when the client goes away: the provider must stop its upstream work. */
  signal: AbortSignal;
}

/** What a provider emits, in order, whatever its wire format. */
export type ProviderEvent =
  | { type: 'thought'; text: string }
  | { type: 'content'; text: string }
  | { type: 'tool_call'; index: number; id?: string; name?: string; arguments: string }
  | { type: 'finish'; reason: FinishReason; stopReason: string | number | null }
  | { type: 'usage'; promptTokens: number; completionTokens: number }
  /** A `</think>` came with no opening tag: the content so far was a thought (the model's template opened it). */
  | { type: 'thought_closed_unopened' };

export interface Provider {
  /** Starts generation; rejects with a provider error (an ApiError, providers/errors.ts) before the first event if the upstream refuses. */
  stream(request: ProviderRequest): Promise<AsyncIterable<ProviderEvent>>;
}

/** Normalises the finish reasons providers report to the four the API knows. */
export function normaliseFinishReason(reason: unknown): FinishReason {
  switch (reason) {
    case 'length':
    case 'max_tokens':
      return 'length';
    case 'tool_calls':
    case 'function_call':
    case 'tool_use':
      return 'tool_calls';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'stop';
  }
}

/** The messages as an OpenAI-shaped upstream takes them: a user message with media as its parts, every other as it is. */
export function wireMessages(messages: ProviderMessage[]): unknown[] {
  return messages.map((message) => {
    if (message.role !== 'user' || !message.parts) return message;
    return { role: 'user', content: message.parts };
  });
}
