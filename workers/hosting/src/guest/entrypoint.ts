import { WorkerEntrypoint } from 'cloudflare:workers';
import { dispatch } from '../../../../lib/agent/handlers.ts';
import type { Message } from '../../../../lib/agent/model.ts';
import { type HostedContext, hostedContext, type HostedMessageContext, plainMessage } from './context.ts';
import { definedAgents, HostedAgentDefinition } from './define-agent.ts';
import type { GuestAnswer, GuestCalls, GuestDescription, GuestEnv, IncomingMessage } from './protocol.ts';

function chooseAgent(exported: unknown): HostedAgentDefinition {
  if (exported instanceof HostedAgentDefinition) return exported;
  if (definedAgents.length === 1) return definedAgents[0]!;
  throw new Error(
    definedAgents.length === 0
      ? 'the main file defines no agent: call defineAgent({name}) from "rendezvous/agent"'
      : 'the main file defines several agents: export default the one to run',
  );
}

function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/**
 * The Dynamic Worker's entrypoint the host calls: the agent's description, one message, lifecycle and
 * interval events. A handler that throws is logged to the agent's logs and reported, never rethrown raw.
 */
export function hostedEntrypoint(exported: unknown) {
  const agent = chooseAgent(exported);
  return class HostedAgentEntrypoint extends WorkerEntrypoint<GuestEnv> implements GuestCalls {
    async describe(): Promise<GuestDescription> {
      return { name: agent.name, intervals: agent.intervals.map((interval) => interval.period) };
    }

    async message(message: IncomingMessage): Promise<GuestAnswer> {
      const route = dispatch(agent.table, message.schemaDigest, message.payload);
      if (!route.ok) return route;
      let reply: Message | null = null;
      const { ctx: base, flush } = hostedContext(this.env, agent.name, message.session);
      const ctx: HostedMessageContext = {
        ...base,
        sender: message.sender,
        session: message.session,
        // The first message back to the sender in this session is the reply (the host signs it, and answers a
        // synchronous sender with it); anything else is sent as usual.
        send: async (to, outgoing, options = {}) => {
          const session = options.session ?? message.session;
          if (!reply && to === message.sender && session === message.session) {
            reply = plainMessage(outgoing);
            return;
          }
          await base.send(to, outgoing, { session });
        },
      };
      try {
        const result = await route.handler(ctx, message.sender, route.message);
        return {
          ok: true,
          result: result && typeof result === 'object' ? (JSON.parse(JSON.stringify(result)) as Record<string, unknown>) : null,
          reply,
        };
      } catch (error) {
        await this.logFailure(`message handler failed (schema ${message.schemaDigest} from ${message.sender})`, error);
        return { ok: false, code: 'handler_failed', message: error instanceof Error ? error.message : String(error) };
      } finally {
        await flush();
      }
    }

    async startup(): Promise<void> {
      await this.runAll('startup', agent.table.startup);
    }

    async shutdown(): Promise<void> {
      await this.runAll('shutdown', agent.table.shutdown);
    }

    async interval(index: number): Promise<void> {
      const interval = agent.intervals[index];
      if (interval) await this.runAll(`interval (every ${interval.period} s)`, [interval.handler]);
    }

    private async runAll(what: string, handlers: ((ctx: HostedContext) => unknown)[]): Promise<void> {
      const { ctx, flush } = hostedContext(this.env, agent.name);
      for (const handler of handlers) {
        try {
          await handler(ctx);
        } catch (error) {
          await this.logFailure(`${what} handler failed`, error);
        }
      }
      await flush();
    }

    private async logFailure(what: string, error: unknown): Promise<void> {
      await this.env.HOST.log('erro', `${what}: ${describeError(error)}`).catch(() => undefined);
    }
  };
}
