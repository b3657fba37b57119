import type { Envelope } from '../../schemas/envelope.ts';
import type { BoundAgent } from './bound.ts';
import { deliverNow } from './deliver-now.ts';
import type { Message } from './model.ts';
import { enqueue, signMessage } from './outbox.ts';
import { sendAndReceive } from './send-and-receive.ts';
import type { AgentContext, MessageContext } from './types.ts';

export function agentContext<Env>(agent: BoundAgent<Env>, defaultSession?: string): AgentContext<Env> {
  return {
    name: agent.definition.name,
    address: agent.identity.address,
    env: agent.env,
    executionCtx: agent.executionCtx,
    send: async (to, message, options = {}) => {
      await enqueue(agent, signMessage(agent, to, message, options.session ?? defaultSession ?? crypto.randomUUID()));
    },
    deliver: (to, message, options = {}) =>
      deliverNow(agent, to, message, { ...options, session: options.session ?? defaultSession ?? crypto.randomUUID() }),
    sendAndReceive: (to, message, options = {}) =>
      sendAndReceive(agent, to, message, { ...options, session: options.session ?? defaultSession ?? crypto.randomUUID() }) as never,
  };
}

/** The sync reply slot: the first message a handler sends back to the sender in its session. */
export interface SyncReply {
  envelope: Envelope | null;
}

/**
 * Context of a message handler: sends default to the incoming session. When the sender asked for a
 * synchronous answer, the handler's reply to it is returned in the HTTP response instead of queued.
 */
export function messageContext<Env>(agent: BoundAgent<Env>, envelope: Envelope, syncReply: SyncReply | null): MessageContext<Env> {
  const base = agentContext(agent, envelope.session);
  const send = async (to: string, message: Message, options: { session?: string } = {}) => {
    const session = options.session ?? envelope.session;
    if (syncReply && !syncReply.envelope && to === envelope.sender && session === envelope.session) {
      syncReply.envelope = signMessage(agent, to, message, session);
      return;
    }
    await base.send(to, message, { session });
  };
  return { ...base, send, sender: envelope.sender, session: envelope.session, envelope };
}
