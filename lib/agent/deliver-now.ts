import { serializeEnvelope } from '../envelope/index.ts';
import type { BoundAgent } from './bound.ts';
import { reportInteraction } from './interactions.ts';
import type { Message } from './model.ts';
import { signMessage } from './outbox.ts';
import { deliverWithRetries } from './send-and-receive.ts';
import type { DeliveryStatus } from './types.ts';

/** `ctx.deliver`: one signed envelope delivered directly (no queue), retried while the receiver fails for now. */
export async function deliverNow<Env>(
  agent: BoundAgent<Env>,
  to: string,
  message: Message,
  options: { session: string; timeout?: number },
): Promise<DeliveryStatus> {
  const { session } = options;
  const envelope = signMessage(agent, to, message, session);
  const delivery = await deliverWithRetries(agent, to, serializeEnvelope(envelope), Date.now() + (options.timeout ?? 30_000), {
    sync: false,
  });
  if (delivery.kind !== 'delivered')
    return { status: 'failed', detail: delivery.detail, code: delivery.code, destination: to, endpoint: delivery.endpoint, session };
  if (!delivery.duplicate) agent.executionCtx.waitUntil(reportInteraction(agent, to, session));
  return { status: 'delivered', detail: `accepted with ${delivery.status}`, destination: to, endpoint: delivery.endpoint, session };
}
