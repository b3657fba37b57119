import { protocolDigest } from '../envelope/index.ts';
import { type AgentContent, chatAcknowledgementSchema, type ChatMessagePayload, chatMessageSchema } from '../../schemas/chat-protocol.ts';
import { type Message, model } from './model.ts';

/**
 * AgentChatProtocol's digest, computed as uagents-core computes it from its two models and their
 * interactions (ChatMessage → ChatAcknowledgement; an acknowledgement is answered by nothing).
 */
export const CHAT_PROTOCOL_DIGEST = protocolDigest([
  {
    request: { title: 'ChatMessage', schema: chatMessageSchema },
    replies: [{ title: 'ChatAcknowledgement', schema: chatAcknowledgementSchema }],
  },
  { request: { title: 'ChatAcknowledgement', schema: chatAcknowledgementSchema }, replies: [] },
]);

/** The chat message model: `ChatMessage({timestamp, msg_id, content})`, or `chatMessage(…)` for the usual defaults. */
export const ChatMessage = model('ChatMessage', chatMessageSchema, { protocolDigest: CHAT_PROTOCOL_DIGEST });

/** The acknowledgement model; lib/agent sends one for every chat message an agent's chat handler takes. */
export const ChatAcknowledgement = model('ChatAcknowledgement', chatAcknowledgementSchema, { protocolDigest: CHAT_PROTOCOL_DIGEST });

/**
 * A chat message to send: text (one TextContent) or content items, a fresh msg_id and the time now, as
 * uagents' `ChatMessage(content)` constructor fills them in.
 */
export function chatMessage(
  content: string | AgentContent[],
  options: { msgId?: string; timestamp?: Date } = {},
): Message<ChatMessagePayload> {
  return ChatMessage({
    timestamp: (options.timestamp ?? new Date()).toISOString(),
    msg_id: options.msgId ?? crypto.randomUUID(),
    content: typeof content === 'string' ? [{ type: 'text', text: content }] : content,
  });
}

/** The text of a chat message: its text items joined, as uagents' `ChatMessage.text()`. */
export function chatText(message: Pick<ChatMessagePayload, 'content'>): string {
  return message.content.map((item) => (item.type === 'text' ? item.text : '')).join('');
}
