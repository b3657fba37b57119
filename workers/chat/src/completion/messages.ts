import { ApiError } from '../../../../lib/http/api-error.ts';
import type { ChatCompletionRequest, ContentPart } from '../../../../schemas/chat.ts';
import { type ServedModel, takesPart } from '../config/models.ts';
import type { ProviderMessage } from '../providers/types.ts';

type Content = ChatCompletionRequest['messages'][number]['content'];

function text(content: Content): string {
  if (content == null) return '';
  return typeof content === 'string' ? content : content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** The parts as the provider is sent them when there is media among them (text alone travels as a string). */
function mediaParts(content: Content): ContentPart[] | undefined {
  return Array.isArray(content) && content.some((part) => part.type !== 'text') ? content : undefined;
}

/**
 * Refuses (400, naming the part and the model) a media part the model does not take: only text parts reach a
 * model that reads text only. `at` names where the messages came from in the caller's request (`messages`, `input`).
 */
export function checkContentParts(messages: ChatCompletionRequest['messages'], model: ServedModel, at = 'messages'): void {
  messages.forEach((message, index) => {
    if (!Array.isArray(message.content)) return;
    message.content.forEach((part, partIndex) => {
      if (part.type === 'text' || (message.role === 'user' && takesPart(model, part.type))) return;
      const param = `${at}.${index}.content.${partIndex}`;
      const why =
        message.role === 'user'
          ? `model ${model.alias} (${model.provider} provider) takes text parts only`
          : `media parts are taken in user messages only`;
      throw new ApiError({
        status: 400,
        message: `${param} is an ${part.type} part, and ${why}`,
        type: 'invalid_request_error',
        param,
        code: 'unsupported_content_part',
      });
    });
  });
}

/** The request's messages as providers take them: text content (and media parts when admitted), `developer` folded into `system`. */
export function toProviderMessages(messages: ChatCompletionRequest['messages']): ProviderMessage[] {
  return messages.map((message): ProviderMessage => {
    switch (message.role) {
      case 'system':
      case 'developer':
        return { role: 'system', content: text(message.content) };
      case 'user': {
        const parts = mediaParts(message.content);
        return parts ? { role: 'user', content: text(message.content), parts } : { role: 'user', content: text(message.content) };
      }
      case 'assistant':
        return message.tool_calls?.length
          ? { role: 'assistant', content: text(message.content), tool_calls: message.tool_calls }
          : { role: 'assistant', content: text(message.content) };
      default: // 'tool'
        return { role: 'tool', content: text(message.content), tool_call_id: message.tool_call_id };
    }
  });
}
