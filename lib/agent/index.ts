export { ReplayLedger } from '../envelope/replay-ledger.ts';
export type { ChatAcknowledgementHandler, ChatHandler } from './chat-handler.ts';
export { CHAT_PROTOCOL_DIGEST, ChatAcknowledgement, ChatMessage, chatMessage, chatText } from './chat-protocol.ts';
export type { AgentConfig } from './bound.ts';
export { defineAgent, serveAgents, type Agent } from './define-agent.ts';
export { MAX_EARLIER_TURNS, readEarlierTurns, withEarlierTurns } from './earlier-turns.ts';
export type { AgentExecutionContext } from './execution.ts';
export type { DeliveryFailureCode } from './delivery-failure.ts';
export { model, rawMessage, type Message, type Model } from './model.ts';
export { outboundMessageSchema, type OutboundMessage } from './outbound-message.ts';
export { AlmanacResolver, StaticResolver, UnknownAgentError, type EndpointResolver } from './resolver.ts';
export type {
  AgentContext,
  AgentSettings,
  DeadLetter,
  DeliveryStatus,
  HandlerResult,
  MessageContext,
  ReceivedReply,
  SendAndReceiveOptions,
  SendOptions,
} from './types.ts';
