import type { z } from 'zod';
import { emptyHandlerTable, type HandlerTable } from '../../../../lib/agent/handlers.ts';
import type { Model } from '../../../../lib/agent/model.ts';
import type { HostedContext, HostedMessageContext } from './context.ts';
import { MIN_INTERVAL_SECONDS } from './protocol.ts';

type Awaitable<T> = T | Promise<T>;
type HandlerResult = void | undefined | Record<string, unknown>;
export type HostedHandler<Payload> = (ctx: HostedMessageContext, sender: string, message: Payload) => Awaitable<HandlerResult>;
export type HostedLifecycleHandler = (ctx: HostedContext) => Awaitable<void>;

/** What hosted code may give defineAgent; the platform supplies identity, endpoint and registration. */
export interface HostedAgentConfig {
  name: string;
  title?: string;
  readme?: string;
  description?: string;
  /** lib/agent's settings: ignored here (the platform holds the seed and the bindings). */
  settings?: unknown;
}

/**
 * A hosted agent: lib/agent's defineAgent API (onMessage by model, onPayload by shape, startup and shutdown)
 * plus onInterval. The handler table is lib/agent's, so dispatch is the same code as for Worker agents.
 */
export class HostedAgentDefinition {
  // lib/agent's table, holding handlers of the hosted context.
  readonly table: HandlerTable<unknown, HostedHandler<unknown>, HostedLifecycleHandler> = emptyHandlerTable();
  readonly intervals: { period: number; handler: HostedLifecycleHandler }[] = [];

  constructor(readonly config: HostedAgentConfig) {}

  get name(): string {
    return this.config.name;
  }

  onMessage<Schema extends z.ZodObject>(model: Model<Schema>, handler: HostedHandler<z.output<Schema>>): this {
    if (this.table.typed.has(model.digest))
      throw new Error(`agent ${this.name}: a handler for ${model.title} (${model.digest}) is declared already`);
    this.table.typed.set(model.digest, { model, handler: handler as HostedHandler<unknown> });
    return this;
  }

  onPayload<Shape extends z.ZodType>(shape: Shape, handler: HostedHandler<z.output<Shape>>): this {
    this.table.shapes.push({ shape, handler: handler as HostedHandler<unknown> });
    return this;
  }

  onStartup(handler: HostedLifecycleHandler): this {
    this.table.startup.push(handler);
    return this;
  }

  onShutdown(handler: HostedLifecycleHandler): this {
    this.table.shutdown.push(handler);
    return this;
  }

  /** Runs `handler` every `period` seconds while the agent runs (Durable Object alarms; at least 1 s). */
  onInterval(options: { period: number }, handler: HostedLifecycleHandler): this {
    if (!(options.period >= MIN_INTERVAL_SECONDS))
      throw new Error(`agent ${this.name}: an interval period is at least ${MIN_INTERVAL_SECONDS} s`);
    this.intervals.push({ period: options.period, handler });
    return this;
  }
}

/** The agents defined while the code loaded: the main module's default export, or the one agent it defined. */
export const definedAgents: HostedAgentDefinition[] = [];

export function defineAgent(config: HostedAgentConfig): HostedAgentDefinition {
  const agent = new HostedAgentDefinition(config);
  definedAgents.push(agent);
  return agent;
}
