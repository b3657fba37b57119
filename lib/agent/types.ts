import type { z } from 'zod';
import type { ReplayLedger } from '../envelope/replay-ledger.ts';
import type { Envelope } from '../../schemas/envelope.ts';
import type { AgentExecutionContext } from './execution.ts';
import type { DeliveryFailureCode } from './delivery-failure.ts';
import type { Message, Model } from './model.ts';
import type { OutboundMessage } from './outbound-message.ts';
import type { EndpointResolver } from './resolver.ts';

/** What an agent needs from its Worker's env; `settings(env, ctx)` in defineAgent returns it. */
export interface AgentSettings {
  /** The identity seed (a credential: keep it in a secret). */
  seed: string;
  index?: number;
  /** Public URL of this agent's webhook, as registered. */
  webhookUrl: string;
  registryUrl: string;
  /** Registry API key with write permission; without one the agent does not register itself. */
  registryToken?: string;
  replayLedger: DurableObjectNamespace<ReplayLedger>;
  outbox: Queue<OutboundMessage>;
  /** Send to loopback/private webhooks (local development only). */
  allowPrivateUrls?: boolean;
  resolver?: EndpointResolver;
  /** The fetch of every outbound call (registry, webhooks). */
  fetch?: typeof fetch;
  envelopeTtlSeconds?: number;
  retry?: { baseDelaySeconds?: number; maxDelaySeconds?: number };
  reportInteractions?: boolean;
  /** Name of the dead-letter queue, whose batches the queue handler reads as dead letters. */
  deadLetterQueue?: string;
}

export interface SendOptions {
  /** Conversation id; defaults to the incoming message's session in a handler, else a new UUID. */
  session?: string;
}

export interface SendAndReceiveOptions<Reply extends Model | undefined = undefined> extends SendOptions {
  /** Milliseconds to wait for the reply (default 30 000). */
  timeout?: number;
  /** The model the reply must have; its payload is validated. */
  response?: Reply;
}

export interface DeliveryStatus {
  status: 'delivered' | 'failed';
  detail: string;
  /** Why the message did not reach the receiver (status `failed` before delivery), as a code safe to show. */
  code?: DeliveryFailureCode;
  destination: string;
  endpoint: string | null;
  session: string;
}

export interface ReceivedReply<Payload = unknown> {
  sender: string;
  session: string;
  schemaDigest: string;
  payload: Payload;
}

type ReplyPayload<Reply> = Reply extends Model<infer Schema> ? z.output<Schema> : unknown;

export interface AgentContext<Env = unknown> {
  readonly name: string;
  readonly address: string;
  readonly env: Env;
  readonly executionCtx: AgentExecutionContext;
  /** Signs and queues a message; resolves once queued (delivery is at least once, in the background). */
  send(to: string, message: Message, options?: SendOptions): Promise<void>;
  /**
   * Delivers directly, not queued, with the same retries as sendAndReceive within `timeout` (default
   * 30 000 ms), and resolves once the receiver acknowledged (2xx) or it failed; any reply comes later, to
   * the webhook. For a sender that must know now whether this receiver took the message (to try another).
   * A dead receiver (nothing listening) fails within the 3 attempts, well before `timeout`.
   */
  deliver(to: string, message: Message, options?: SendOptions & { timeout?: number }): Promise<DeliveryStatus>;
  /** Delivers directly and waits for the receiver's reply in the same session. */
  sendAndReceive<Reply extends Model | undefined = undefined>(
    to: string,
    message: Message,
    options?: SendAndReceiveOptions<Reply>,
  ): Promise<[ReceivedReply<ReplyPayload<Reply>> | null, DeliveryStatus]>;
}

export interface MessageContext<Env = unknown> extends AgentContext<Env> {
  readonly sender: string;
  readonly session: string;
  readonly envelope: Envelope;
}

/**
 * A handler's answer: nothing (`{status:'success'}`), a JSON object, or a Response. To refuse the message,
 * throw an ApiError (lib/http/api-error.ts): the host app's `onError` answers it in its dialect.
 */
export type HandlerResult = void | undefined | Record<string, unknown> | Response;

export type MessageHandler<Env, Payload> = (
  ctx: MessageContext<Env>,
  sender: string,
  message: Payload,
) => HandlerResult | Promise<HandlerResult>;
export type LifecycleHandler<Env> = (ctx: AgentContext<Env>) => void | Promise<void>;

export interface DeadLetter {
  target: string;
  session: string;
  /** Why it was given up: the last refusal or error. */
  reason: string;
  envelope: string;
}
export type DeadLetterHandler<Env> = (ctx: AgentContext<Env>, letter: DeadLetter) => void | Promise<void>;
