import { consumeBatch } from '../../../../lib/agent/consumer.ts';
import { outboundMessageSchema } from '../../../../lib/agent/index.ts';
import { findAgent } from '../agents/store.ts';
import { platformAgent } from './platform-agent.ts';

/**
 * The outbox consumer: lib/agent's, over the hosted agents that sent the batch's messages (an outbox
 * message names its agent by address). A message of a deleted agent is dropped by lib/agent, logged.
 */
export async function consumeOutbox(batch: MessageBatch<unknown>, env: HostingEnv, ctx: ExecutionContext): Promise<void> {
  const addresses = new Set<string>();
  for (const message of batch.messages) {
    const parsed = outboundMessageSchema.safeParse(message.body);
    if (parsed.success) addresses.add(parsed.data.agent);
  }
  const rows = await Promise.all([...addresses].map((address) => findAgent(env.DB, address)));
  const agents = await Promise.all(rows.filter((row) => row !== null).map((row) => platformAgent(env, row)));
  await consumeBatch(agents, batch, env, ctx);
}
