import type { ChatAcknowledgementPayload, ChatMessagePayload } from '../../schemas/chat-protocol.ts';
import { ChatAcknowledgement } from './chat-protocol.ts';
import type { MessageContext, MessageHandler } from './types.ts';

export type ChatHandler<Env> = MessageHandler<Env, ChatMessagePayload>;
export type ChatAcknowledgementHandler<Env> = MessageHandler<Env, ChatAcknowledgementPayload>;

/** Acknowledgements an agent does not ask to see are taken and dropped: the protocol answers them with nothing. */
export const ignoreAcknowledgement: ChatAcknowledgementHandler<unknown> = () => undefined;

/**
 * A chat handler as the runtime runs it: the message is acknowledged (a ChatAcknowledgement of its msg_id,
 * to the sender, in its session) as uagents agents do, once the handler has taken it — before anything the
 * handler sends the sender, else when it returns. A handler that refuses the message (throws, or answers
 * with a non-2xx Response) sends no acknowledgement: the sender hears the refusal instead.
 */
export function acknowledging<Env>(handler: ChatHandler<Env>): ChatHandler<Env> {
  return async (ctx, sender, message) => {
    let acknowledged: Promise<void> | undefined;
    const acknowledge = () =>
      (acknowledged ??= ctx.send(
        sender,
        ChatAcknowledgement({ timestamp: new Date().toISOString(), acknowledged_msg_id: message.msg_id }),
        { session: ctx.session },
      ));
    const toSenderAfterAck = async (to: string) => {
      if (to === sender) await acknowledge();
    };
    const chatCtx: MessageContext<Env> = {
      ...ctx,
      send: async (to, reply, options) => {
        await toSenderAfterAck(to);
        await ctx.send(to, reply, options);
      },
      deliver: async (to, reply, options) => {
        await toSenderAfterAck(to);
        return ctx.deliver(to, reply, options);
      },
      sendAndReceive: async (to, reply, options) => {
        await toSenderAfterAck(to);
        return ctx.sendAndReceive(to, reply, options);
      },
    };
    const result = await handler(chatCtx, sender, message);
    if (!(result instanceof Response) || result.ok) await acknowledge();
    return result;
  };
}
