import { WorkerEntrypoint } from 'cloudflare:workers';
import { dispatch } from '../../../../lib/agent/handlers.ts';
import type { Message } from '../../../../lib/agent/model.ts';
import { type HostedContext, hostedContext, type HostedMessageContext, plainMessage } from './context.ts';
import { definedAgents, HostedAgentDefinition } from './define-agent.ts';
import { overBudgetReason, startAfresh, withinBudget } from './guard.ts';
import {
  GUEST_BUDGET_MS,
  type GuestAnswer,
  type GuestCallKind,
  type GuestCalls,
  type GuestDescription,
  type GuestEnv,
  type IncomingMessage,
  OVER_BUDGET_TAG,
  type RestAnswer,
  type RestRequest,
} from './protocol.ts';

function chooseAgent(exported: unknown): HostedAgentDefinition {
  if (exported instanceof HostedAgentDefinition) return exported;
  if (definedAgents.length === 1) return definedAgents[0]!;
  throw new Error(
    definedAgents.length === 0
      ? 'the main file defines no agent: call defineAgent({name}) from "rendezvous/agent"'
      : 'the main file defines several agents: export default the one to run',
  );
}

/**
 * One call of the host's within its budget (guest/guard.ts). Over it, the call throws an error tagged
 * OVER_BUDGET_TAG, even where a handler's failure is otherwise an answer: the host then stops the agent.
 */
async function budgeted<T>(kind: GuestCallKind, what: string, call: () => Promise<T>): Promise<T> {
  const result = await withinBudget(what, GUEST_BUDGET_MS[kind], call);
  const reason = overBudgetReason();
  if (reason !== null) throw new Error(`${OVER_BUDGET_TAG} ${reason}`);
  return result;
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
    /** Called when the agent starts: a fresh start, so a budget the agent went over before no longer stops it. */
    async describe(): Promise<GuestDescription> {
      startAfresh();
      return { name: agent.name, intervals: agent.intervals.map((interval) => interval.period) };
    }

    async message(message: IncomingMessage): Promise<GuestAnswer> {
      return budgeted('message', `the message handler (schema ${message.schemaDigest})`, () => this.handle(message));
    }

    private async handle(message: IncomingMessage): Promise<GuestAnswer> {
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

    /** rendezvous/agent declares no REST endpoints (Python agents do, with on_rest_get / on_rest_post). */
    async rest(request: RestRequest): Promise<RestAnswer> {
      return { ok: false, status: 404, message: `this agent serves no ${request.method} ${request.path}` };
    }

    async startup(): Promise<void> {
      await budgeted('startup', 'the startup handlers', () => this.runAll('startup', agent.table.startup));
    }

    async shutdown(): Promise<void> {
      await budgeted('shutdown', 'the shutdown handlers', () => this.runAll('shutdown', agent.table.shutdown));
    }

    async interval(index: number): Promise<void> {
      const interval = agent.intervals[index];
      const what = `interval (every ${interval?.period} s)`;
      if (interval) await budgeted('interval', `the ${what} handler`, () => this.runAll(what, [interval.handler]));
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
