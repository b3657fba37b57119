import { z } from 'zod';
import { ChatCompletion, type ChatCompletionRequest, type ChatMessage, type Tool, type ToolCall } from '../../../../schemas/chat.ts';

interface ChatConfig {
  /** `{llm_base_url}`, ending in `/v1`. */
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
  fetch: typeof fetch;
}

interface ChatReply {
  content: string;
  toolCalls: ToolCall[];
}

/** What the specialist reads of a completion; any OpenAI-compatible server's answer has at least this. */
const completionReply = z.object({
  choices: z
    .array(z.object({ message: ChatCompletion.shape.choices.element.shape.message.pick({ content: true, tool_calls: true }).partial() }))
    .min(1),
});

/**
 * OpenAI-style chat completions (the chat Worker). The supervisor only uses the model to improve on its
 * own rules, so a failure is logged and answered with null, never thrown.
 */
export class ChatClient {
  constructor(private readonly config: ChatConfig) {}

  async complete(messages: ChatMessage[], options: { tools?: Tool[] } = {}): Promise<ChatReply | null> {
    const body: Partial<ChatCompletionRequest> = { model: this.config.model, messages, temperature: 0, stream: false };
    if (options.tools?.length) Object.assign(body, { tools: options.tools, tool_choice: 'auto' });
    try {
      const response = await this.config.fetch(`${this.config.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${this.config.apiKey}`, 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
      if (!response.ok) {
        console.warn(`chat: ${response.status} from ${this.config.baseUrl}: ${(await response.text()).slice(0, 200)}`);
        return null;
      }
      const parsed = completionReply.safeParse(await response.json());
      if (!parsed.success) {
        console.warn(`chat: unexpected answer from ${this.config.baseUrl}: ${parsed.error.issues[0]?.message}`);
        return null;
      }
      const message = parsed.data.choices[0]!.message;
      return { content: message.content ?? '', toolCalls: message.tool_calls ?? [] };
    } catch (error) {
      console.warn(`chat: ${this.config.baseUrl} failed: ${(error as Error).message}`);
      return null;
    }
  }
}
