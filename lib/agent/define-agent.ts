import { Hono, type MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { notFound, onError } from '../http/errors.ts';
import { validPart } from '../http/validate.ts';
import { type AgentConfig, bindAgent, type AgentDefinition, type BoundAgent } from './bound.ts';
import { acknowledging, ignoreAcknowledgement, type ChatAcknowledgementHandler, type ChatHandler } from './chat-handler.ts';
import { CHAT_PROTOCOL_DIGEST, ChatAcknowledgement, ChatMessage } from './chat-protocol.ts';
import { agentContext } from './context.ts';
import { consumeBatch, type ConsumerAgent } from './consumer.ts';
import type { AgentExecutionContext } from './execution.ts';
import { emptyHandlerTable, type HandlerTable } from './handlers.ts';
import { ensureStarted, shutDown } from './lifecycle.ts';
import type { Model } from './model.ts';
import { answerWith } from './rest-routes.ts';
import type { AgentContext, DeadLetterHandler, LifecycleHandler, MessageHandler } from './types.ts';
import { handleWebhook } from './webhook.ts';

type Bindings<Env extends object> = { Bindings: Env };
type Awaitable<T> = T | Promise<T>;

export interface Agent<Env extends object> extends ConsumerAgent<Env> {
  /** The agent's routes, to mount in a Worker's app: errors are answered by that app's `onError`, in its dialect. */
  readonly app: Hono<Bindings<Env>>;
  fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response>;
  queue(batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext): Promise<void>;
  scheduled(controller: ScheduledController, env: Env, ctx: ExecutionContext): Promise<void>;
  onMessage<Schema extends z.ZodObject>(model: Model<Schema>, handler: MessageHandler<Env, z.output<Schema>>): Agent<Env>;
  onPayload<Shape extends z.ZodType>(shape: Shape, handler: MessageHandler<Env, z.output<Shape>>): Agent<Env>;
  /** Speaks AgentChatProtocol: each ChatMessage taken is acknowledged by the runtime (chat-handler.ts); registers the protocol. */
  onChat(handler: ChatHandler<Env>): Agent<Env>;
  /** Acknowledgements of the chat messages this agent sent (without one they are taken and dropped). */
  onChatAcknowledgement(handler: ChatAcknowledgementHandler<Env>): Agent<Env>;
  onStartup(handler: LifecycleHandler<Env>): Agent<Env>;
  onShutdown(handler: LifecycleHandler<Env>): Agent<Env>;
  onDeadLetter(handler: DeadLetterHandler<Env>): Agent<Env>;
  get<Response extends z.ZodType>(
    path: string,
    spec: { response: Response },
    handler: (ctx: AgentContext<Env>) => Awaitable<z.input<Response>>,
  ): Agent<Env>;
  post<Request extends z.ZodType<object>, Response extends z.ZodType>(
    path: string,
    spec: { request: Request; response: Response },
    handler: (ctx: AgentContext<Env>, body: z.output<Request>) => Awaitable<z.input<Response>>,
  ): Agent<Env>;
  context(env: Env, ctx: AgentExecutionContext): AgentContext<Env>;
  address(env: Env, ctx: AgentExecutionContext): string;
  shutdown(env: Env, ctx: AgentExecutionContext): Promise<void>;
}

/** A Worker-hosted agent: identity, registration, verified webhook, handlers, REST routes, queued delivery. */
export function defineAgent<Env extends object>(config: AgentConfig<Env>): Agent<Env> {
  const definition: AgentDefinition<Env> = { ...config, webhookPath: config.webhookPath ?? '/webhook' };
  const table: HandlerTable<Env> = emptyHandlerTable();
  const bind = (env: Env, ctx: AgentExecutionContext) => bindAgent(definition, env, ctx);
  const started = (bound: BoundAgent<Env>) => ensureStarted(bound, table);
  const boundOf = (env: Env, ctx: AgentExecutionContext) => {
    const bound = bind(env, ctx);
    started(bound);
    return bound;
  };
  const fromRequest = (c: { env: Env; executionCtx: AgentExecutionContext }) => boundOf(c.env, c.executionCtx);

  const app = new Hono<Bindings<Env>>();
  app.post(definition.webhookPath, (c) => handleWebhook(c, fromRequest(c), table));
  // The agent served alone (its own Worker), with the platform's error answers. Made on the first request,
  // when every route is declared (mounting copies the routes there are).
  let standalone: Hono<Bindings<Env>> | undefined;
  const served = () => (standalone ??= new Hono<Bindings<Env>>().route('/', app).onError(onError).notFound(notFound));

  const setAcknowledgementHandler = (handler: ChatAcknowledgementHandler<Env>) =>
    table.typed.set(ChatAcknowledgement.digest, { model: ChatAcknowledgement, handler: handler as MessageHandler<Env, unknown> });

  const agent: Agent<Env> = {
    name: config.name,
    table,
    bind,
    started,
    app,
    fetch: async (request, env, ctx) => served().fetch(request, env, ctx),
    queue: (batch, env, ctx) => consumeBatch([agent], batch, env, ctx),
    scheduled: async (_controller, env, ctx) => started(bind(env, ctx)),
    onMessage(model, handler) {
      if (table.typed.has(model.digest))
        throw new Error(`agent ${config.name}: a handler for ${model.title} (${model.digest}) is declared already`);
      table.typed.set(model.digest, { model, handler: handler as MessageHandler<Env, unknown> });
      return agent;
    },
    onPayload(shape, handler) {
      table.shapes.push({ shape, handler: handler as MessageHandler<Env, unknown> });
      return agent;
    },
    onChat(handler) {
      agent.onMessage(ChatMessage, acknowledging(handler));
      if (!table.typed.has(ChatAcknowledgement.digest)) setAcknowledgementHandler(ignoreAcknowledgement);
      definition.protocols = [...new Set([...(definition.protocols ?? []), CHAT_PROTOCOL_DIGEST])];
      return agent;
    },
    onChatAcknowledgement(handler) {
      const declared = table.typed.get(ChatAcknowledgement.digest);
      if (declared && declared.handler !== ignoreAcknowledgement)
        throw new Error(`agent ${config.name}: a ChatAcknowledgement handler is declared already`);
      setAcknowledgementHandler(handler);
      return agent;
    },
    onStartup(handler) {
      table.startup.push(handler);
      return agent;
    },
    onShutdown(handler) {
      table.shutdown.push(handler);
      return agent;
    },
    onDeadLetter(handler) {
      table.deadLetter.push(handler);
      return agent;
    },
    get(path, spec, handler) {
      app.get(path, (c) => {
        const ctx = agentContext(fromRequest(c));
        return answerWith(c, spec.response, () => handler(ctx), ctx);
      });
      return agent;
    },
    post(path, spec, handler) {
      app.post(path, async (c) => {
        const body = await validPart(c, 'json', spec.request);
        const ctx = agentContext(fromRequest(c));
        return answerWith(c, spec.response, () => handler(ctx, body), ctx);
      });
      return agent;
    },
    context: (env, ctx) => agentContext(boundOf(env, ctx)),
    address: (env, ctx) => bind(env, ctx).identity.address,
    shutdown: (env, ctx) => shutDown(bind(env, ctx), table),
  };
  return agent;
}

/**
 * For a Worker that hosts several agents, or mounts an agent beside routes of its own: the queue and
 * Cron handlers over one outbox queue, and a middleware that starts every agent (registration, startup
 * handlers) on any request, so that an agent that has not been sent anything yet still registers.
 */
export function serveAgents<Env extends object>(
  agents: Agent<Env>[],
): Pick<ExportedHandler<Env>, 'queue' | 'scheduled'> & { start: MiddlewareHandler<Bindings<Env>> } {
  return {
    start: async (c, next) => {
      for (const agent of agents) agent.started(agent.bind(c.env, c.executionCtx));
      await next();
    },
    queue: (batch, env, ctx) => consumeBatch(agents, batch, env, ctx),
    scheduled: async (_controller, env, ctx) => {
      for (const agent of agents) agent.started(agent.bind(env, ctx));
    },
  };
}
