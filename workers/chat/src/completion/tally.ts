import type { FinishReason, ToolCall, Usage } from '../../../../schemas/chat.ts';
import type { CompletionEvent } from './events.ts';
import { countText } from './token-count.ts';

/** Everything a completion produced, gathered from its events (for the JSON answer and for usage). */
export class CompletionTally {
  content = '';
  thought = '';
  finishReason: FinishReason = 'stop';
  stopReason: string | number | null = null;
  private readonly calls: { id: string; name: string; arguments: string }[] = [];
  private reported: { promptTokens: number; completionTokens: number } | null = null;
  /** Side calls' tokens (the agent choice): added to whatever the answer's own counts are. */
  private readonly side = { promptTokens: 0, completionTokens: 0 };

  apply(event: CompletionEvent): void {
    switch (event.type) {
      case 'content':
        this.content += event.text;
        break;
      case 'thought':
        this.thought += event.text;
        break;
      case 'thought_closed_unopened':
        this.thought += this.content;
        this.content = '';
        break;
      case 'tool_call': {
        this.calls[event.index] ??= { id: '', name: '', arguments: '' };
        const call = this.calls[event.index]!;
        if (event.id) call.id = event.id;
        if (event.name) call.name += event.name;
        call.arguments += event.arguments;
        break;
      }
      case 'finish':
        this.finishReason = event.reason;
        this.stopReason = event.stopReason;
        break;
      case 'usage':
        this.reported = { promptTokens: event.promptTokens, completionTokens: event.completionTokens };
        break;
      case 'side_call':
        this.side.promptTokens += event.promptTokens;
        this.side.completionTokens += event.completionTokens;
        break;
    }
  }

  toolCalls(): ToolCall[] {
    return this.calls.filter(Boolean).map((call, index) => ({
      id: call.id || `call_${index}`,
      type: 'function' as const,
      function: { name: call.name, arguments: call.arguments },
    }));
  }

  /** The provider's own counts when it gave them; otherwise counted here with the tokenizer. */
  usage(countedPromptTokens: number): Usage {
    const reasoning = countText(this.thought);
    const prompt = (this.reported?.promptTokens ?? countedPromptTokens) + this.side.promptTokens;
    const completion =
      (this.reported?.completionTokens ??
        reasoning + countText(this.content) + this.calls.reduce((sum, call) => sum + countText(call.name) + countText(call.arguments), 0)) +
      this.side.completionTokens;
    return {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      prompt_tokens_details: null,
      completion_tokens_details: { reasoning_tokens: reasoning },
      reasoning_tokens: reasoning,
    };
  }
}
