import { outboundMessageSchema } from '../../../lib/agent/index.ts';
import { answerSlot } from './slots.ts';

/**
 * lib/agent's outbox consumer acknowledges a message once the receiver accepted it (or after handing a
 * refusal to the dead-letter handlers, which mark the slot failed first). Watching the acknowledgements
 * time-stamps when each request reached the specialist, for the request status and the latency benchmark.
 */
export function watchDeliveries(batch: MessageBatch<unknown>, env: RouterEnv, ctx: ExecutionContext): MessageBatch<unknown> {
  const messages = batch.messages.map((message) => {
    const parsed = outboundMessageSchema.safeParse(message.body);
    if (!parsed.success) return message;
    const session = parsed.data.session;
    // A plain object that forwards: the runtime's Message methods only work on the runtime's own object.
    const watched: Message<unknown> = {
      id: message.id,
      timestamp: message.timestamp,
      body: message.body,
      attempts: message.attempts,
      retry: (options) => message.retry(options),
      ack: () => {
        message.ack();
        ctx.waitUntil(answerSlot(env, session).markDelivered());
      },
    };
    return watched;
  });
  return { queue: batch.queue, metadata: batch.metadata, messages, retryAll: (options) => batch.retryAll(options), ackAll: () => batch.ackAll() };
}
