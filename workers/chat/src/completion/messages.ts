import type { ChatCompletionRequest } from '../../../../schemas/chat.ts';
import type { ProviderMessage } from '../providers/types.ts';

type Content = ChatCompletionRequest['messages'][number]['content'];

function text(content: Content): string {
  if (content == null) return '';
  return typeof content === 'string' ? content : content.map((part) => part.text).join('');
}

/** The request's messages as providers take them: text content, `developer` folded into `system`. */
export function toProviderMessages(messages: ChatCompletionRequest['messages']): ProviderMessage[] {
  return messages.map((message): ProviderMessage => {
    switch (message.role) {
      case 'system':
      case 'developer':
        return { role: 'system', content: text(message.content) };
      case 'user':
        return { role: 'user', content: text(message.content) };
      case 'assistant':
        return message.tool_calls?.length
          ? { role: 'assistant', content: text(message.content), tool_calls: message.tool_calls }
          : { role: 'assistant', content: text(message.content) };
      default: // 'tool'
        return { role: 'tool', content: text(message.content), tool_call_id: message.tool_call_id };
    }
  });
}
