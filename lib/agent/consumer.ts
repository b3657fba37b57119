import type { BoundAgent } from './bound.ts';
import { agentContext } from './context.ts';
import { deliverEnvelope } from './delivery.ts';
import type { AgentExecutionContext } from './execution.ts';
import type { HandlerTable } from './handlers.ts';
import { reportInteraction } from './interactions.ts';
import { outboundMessageSchema, type OutboundMessage } from './outbound-message.ts';
import { backoffSeconds } from './outbox.ts';
import type { DeadLetter } from './types.ts';

/** One agent as the queue consumer sees it: bound to the batch's env, with its handlers. */
export interface ConsumerAgent<Env> {
  name: string;
  bind(env: Env, ctx: AgentExecutionContext): BoundAgent<Env>;
  table: HandlerTable<Env>;
  started(agent: BoundAgent<Env>): void;
}

async function giveUp<Env>(agent: BoundAgent<Env>, table: HandlerTable<Env>, letter: DeadLetter): Promise<void> {
  console.error(`agent ${agent.definition.name}: message to ${letter.target} (session ${letter.session}) given up: ${letter.reason}`);
  const ctx = agentContext(agent);
  for (const handler of table.deadLetter) await handler(ctx, letter);
}

/**
 * The outbox consumer: delivers each message, acknowledges what got through, retries with exponential
 * backoff what may get through later, and hands refusals to the dead-letter handlers at once. Batches
 * from the dead-letter queue (retries exhausted) go to the dead-letter handlers too.
 */
export async function consumeBatch<Env>(
  agents: ConsumerAgent<Env>[],
  batch: MessageBatch<unknown>,
  env: Env,
  ctx: ExecutionContext,
): Promise<void> {
  const byName = new Map(agents.map((agent) => [agent.name, agent]));
  await Promise.all(
    batch.messages.map(async (message) => {
      const parsed = outboundMessageSchema.safeParse(message.body);
      const owner = parsed.success ? byName.get(parsed.data.agent) : undefined;
      if (!parsed.success || !owner) {
        console.error(`queue ${batch.queue}: message ${message.id} is not an outbox message of this Worker's agents; dropped`);
        message.ack();
        return;
      }
      const outbound: OutboundMessage = parsed.data;
      const agent = owner.bind(env, ctx);
      owner.started(agent);
      const letter = (reason: string): DeadLetter => ({
        target: outbound.target,
        session: outbound.session,
        reason,
        envelope: outbound.envelope,
      });
      if (agent.settings.deadLetterQueue === batch.queue) {
        await giveUp(agent, owner.table, letter("not delivered within the outbox queue's retries"));
        message.ack();
        return;
      }
      const delivery = await deliverEnvelope(agent, outbound.target, outbound.envelope);
      if (delivery.kind === 'delivered') {
        message.ack();
        if (!delivery.duplicate) ctx.waitUntil(reportInteraction(agent, outbound.target, outbound.session));
      } else if (delivery.kind === 'retry') {
        console.warn(
          `agent ${agent.definition.name}: attempt ${message.attempts} to ${outbound.target} failed, retrying: ${delivery.detail}`,
        );
        message.retry({ delaySeconds: backoffSeconds(message.attempts, agent.settings.retry) });
      } else {
        await giveUp(agent, owner.table, letter(delivery.detail));
        message.ack();
      }
    }),
  );
}
