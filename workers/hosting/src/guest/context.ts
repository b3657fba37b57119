import type { Message, Model } from '../../../../lib/agent/model.ts';
import type { DeliveryStatus, ReceivedReply } from '../../../../lib/agent/types.ts';
import type { z } from 'zod';
import type { GuestEnv } from './protocol.ts';

/** Per-agent storage: JSON values under string keys (the storage API shows each value's JSON text). */
export interface AgentStorage {
  get<Value = unknown>(key: string): Promise<Value | null>;
  set(key: string, value: unknown): Promise<void>;
  remove(key: string): Promise<boolean>;
  has(key: string): Promise<boolean>;
  keys(): Promise<string[]>;
}

export interface AgentLogger {
  debug(...parts: unknown[]): void;
  info(...parts: unknown[]): void;
  warning(...parts: unknown[]): void;
  warn(...parts: unknown[]): void;
  error(...parts: unknown[]): void;
}

/** A hosted agent's `ctx`: lib/agent's AgentContext (send, sendAndReceive) plus storage, secrets and a logger. */
export interface HostedContext {
  readonly name: string;
  readonly address: string;
  readonly storage: AgentStorage;
  readonly secrets: { get(name: string): Promise<string | null> };
  readonly logger: AgentLogger;
  send(to: string, message: Message, options?: { session?: string }): Promise<void>;
  /** With `response`, a reply that is not that model is refused (status `failed`) and its payload is typed. */
  sendAndReceive<Schema extends z.ZodObject>(
    to: string,
    message: Message,
    options: ReceiveOptions & { response: Model<Schema> },
  ): Promise<Received<z.output<Schema>>>;
  sendAndReceive(to: string, message: Message, options?: ReceiveOptions): Promise<Received<unknown>>;
}

interface ReceiveOptions {
  timeout?: number;
  session?: string;
}

type Received<Payload> = [ReceivedReply<Payload> | null, DeliveryStatus];

export interface HostedMessageContext extends HostedContext {
  readonly sender: string;
  readonly session: string;
}

function text(parts: unknown[]): string {
  return parts
    .map((part) => (typeof part === 'string' ? part : part instanceof Error ? (part.stack ?? part.message) : safeJson(part)))
    .join(' ');
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function parseStored(value: string | null): unknown {
  if (value === null) return null;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/**
 * A handler's context and `flush`, which waits for its log lines: the logger does not make handlers await
 * each line, and the invocation must not end before they are written.
 */
export function hostedContext(env: GuestEnv, name: string, defaultSession?: string): { ctx: HostedContext; flush: () => Promise<void> } {
  const host = env.HOST;
  const pending: Promise<unknown>[] = [];
  const log =
    (level: 'debg' | 'info' | 'warn' | 'erro') =>
    (...parts: unknown[]) => {
      // A log line must never fail the handler that writes it.
      pending.push(host.log(level, text(parts)).catch(() => undefined));
    };
  const flush = async () => {
    await Promise.all(pending.splice(0));
  };
  function sendAndReceive<Schema extends z.ZodObject>(
    to: string,
    message: Message,
    options: ReceiveOptions & { response: Model<Schema> },
  ): Promise<Received<z.output<Schema>>>;
  function sendAndReceive(to: string, message: Message, options?: ReceiveOptions): Promise<Received<unknown>>;
  async function sendAndReceive(
    to: string,
    message: Message,
    options: ReceiveOptions & { response?: Model } = {},
  ): Promise<Received<unknown>> {
    const session = options.session ?? defaultSession ?? crypto.randomUUID();
    const [reply, status] = await host.sendAndReceive(to, plainMessage(message), { session, timeout: options.timeout });
    if (!reply || !options.response) return [reply, status];
    const model = options.response;
    if (reply.schemaDigest !== model.digest) return [null, { ...status, status: 'failed', detail: `the reply is not a ${model.title}` }];
    const checked = model.schema.safeParse(reply.payload);
    if (!checked.success) return [null, { ...status, status: 'failed', detail: `the reply does not match ${model.title}` }];
    return [{ ...reply, payload: checked.data }, status];
  }
  const ctx: HostedContext = {
    name,
    address: env.AGENT_ADDRESS,
    storage: {
      get: async <Value>(key: string) => parseStored(await host.storageGet(key)) as Value | null,
      set: (key, value) => host.storageSet(key, JSON.stringify(value) ?? 'null'),
      remove: (key) => host.storageDelete(key),
      has: async (key) => (await host.storageGet(key)) !== null,
      keys: () => host.storageKeys(),
    },
    secrets: { get: (secret) => host.secret(secret) },
    logger: { debug: log('debg'), info: log('info'), warning: log('warn'), warn: log('warn'), error: log('erro') },
    send: (to, message, options = {}) => host.send(to, plainMessage(message), options.session ?? defaultSession ?? crypto.randomUUID()),
    sendAndReceive,
  };
  return { ctx, flush };
}

/** A Message as plain data for RPC (a model-made message is a plain object already; this drops anything else). */
export function plainMessage(message: Message): Message {
  return { schemaDigest: message.schemaDigest, protocolDigest: message.protocolDigest ?? null, payload: message.payload };
}
