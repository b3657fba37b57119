import type { z } from 'zod';
import type { Model } from './model.ts';
import type { DeadLetterHandler, LifecycleHandler, MessageHandler } from './types.ts';

/**
 * Everything an agent declared, filled by defineAgent's methods at module load. The handler types are
 * lib/agent's by default; hosted agents (workers/hosting) keep their own context's handlers in the same table.
 */
export interface HandlerTable<Env, Handler = MessageHandler<Env, unknown>, Lifecycle = LifecycleHandler<Env>> {
  typed: Map<string, { model: Model; handler: Handler }>;
  shapes: { shape: z.ZodType; handler: Handler }[];
  startup: Lifecycle[];
  shutdown: Lifecycle[];
  deadLetter: DeadLetterHandler<Env>[];
}

export function emptyHandlerTable<Env, Handler = MessageHandler<Env, unknown>, Lifecycle = LifecycleHandler<Env>>(): HandlerTable<
  Env,
  Handler,
  Lifecycle
> {
  return { typed: new Map(), shapes: [], startup: [], shutdown: [], deadLetter: [] };
}

type Dispatch<Handler> =
  | { ok: true; handler: Handler; message: unknown }
  | { ok: false; code: 'unknown_schema' | 'invalid_payload'; message: string };

/**
 * Typed handlers by schema digest first; then shape handlers, in declaration order, by payload shape. A
 * payload under a typed model's digest that has none of the model's fields is not an attempt at that model
 * (the Python `fetchai` SDK sends plain `{request}` JSON under the ChatMessage digest): shape handlers may
 * take it. One that has some of them and fails the model is invalid.
 */
export function dispatch<Handler>(
  table: Pick<HandlerTable<unknown, Handler>, 'typed' | 'shapes'>,
  schemaDigest: string,
  payload: unknown,
): Dispatch<Handler> {
  const typed = table.typed.get(schemaDigest);
  if (typed) {
    const parsed = typed.model.schema.safeParse(payload);
    if (parsed.success) return { ok: true, handler: typed.handler, message: parsed.data };
    if (!table.shapes.length || attempts(typed.model, payload)) {
      const issue = parsed.error.issues[0];
      return {
        ok: false,
        code: 'invalid_payload',
        message: `payload is not a valid ${typed.model.title}: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`,
      };
    }
  }
  for (const { shape, handler } of table.shapes) {
    const parsed = shape.safeParse(payload);
    if (parsed.success) return { ok: true, handler, message: parsed.data };
  }
  return {
    ok: false,
    code: 'unknown_schema',
    message: `this agent has no handler for schema ${schemaDigest} and no payload shape it takes matches`,
  };
}

/** Whether a payload has any field of the model (a payload that is no object has none). */
function attempts(model: Model, payload: unknown): boolean {
  if (payload === null || typeof payload !== 'object') return false;
  return Object.keys(model.schema.shape).some((field) => Object.hasOwn(payload, field));
}
