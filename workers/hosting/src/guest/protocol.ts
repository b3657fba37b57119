import type { Message } from '../../../../lib/agent/model.ts';
import type { DeliveryStatus, ReceivedReply } from '../../../../lib/agent/types.ts';
import type { LogLevel } from '../../../../schemas/hosting.ts';

/**
 * The contract between the hosting Worker and a hosted agent's Dynamic Worker, both ways over RPC: what the
 * guest's entrypoint answers (GuestCalls) and what the host offers it as `env.HOST` (HostCalls). The host
 * binds HOST to the agent's own address (RPC props), so a guest can act only as itself.
 */

export interface GuestDescription {
  name: string;
  /** Period in seconds of each interval handler, in declaration order. */
  intervals: number[];
}

export interface IncomingMessage {
  sender: string;
  session: string;
  schemaDigest: string;
  payload: unknown;
}

export type GuestAnswer =
  /** `reply`: the handler's first message back to the sender in the session (the sync reply when one is awaited). */
  | { ok: true; result: Record<string, unknown> | null; reply: Message | null }
  | { ok: false; code: 'unknown_schema' | 'invalid_payload' | 'handler_failed'; message: string };

/** A request to one of the agent's REST endpoints (uagents' `on_rest_get` / `on_rest_post`). */
export interface RestRequest {
  method: 'GET' | 'POST';
  /** The endpoint as the agent declared it, e.g. `/status`. */
  path: string;
  /** A POST's JSON text, else null. */
  body: string | null;
}

/** The answer the platform sends: 200 with the response model's JSON, or a refusal with its status. */
export type RestAnswer = { ok: true; body: Record<string, unknown> } | { ok: false; status: 400 | 404 | 500; message: string };

export interface GuestCalls {
  describe(): Promise<GuestDescription>;
  message(message: IncomingMessage): Promise<GuestAnswer>;
  rest(request: RestRequest): Promise<RestAnswer>;
  startup(): Promise<void>;
  shutdown(): Promise<void>;
  interval(index: number): Promise<void>;
}

/** GuestCalls as the host's binding to the guest's entrypoint is typed (`getEntrypoint<GuestContract>`). */
export interface GuestContract extends Rpc.WorkerEntrypointBranded, GuestCalls {}

export interface HostCalls {
  send(to: string, message: Message, session: string): Promise<void>;
  sendAndReceive(
    to: string,
    message: Message,
    options: { session: string; timeout?: number },
  ): Promise<[ReceivedReply | null, DeliveryStatus]>;
  storageGet(key: string): Promise<string | null>;
  storageSet(key: string, value: string): Promise<void>;
  storageDelete(key: string): Promise<boolean>;
  storageKeys(): Promise<string[]>;
  /** Every stored key and its JSON text (Python guests read storage synchronously, from this snapshot). */
  storageEntries(): Promise<Record<string, string>>;
  secret(name: string): Promise<string | null>;
  /** Every secret of the agent by name (Python guests see them as environment variables, as on Agentverse). */
  secrets(): Promise<Record<string, string>>;
  log(level: LogLevel, entry: string): Promise<void>;
  /** The memory snapshot a Python guest starts Pyodide from (decision 0153), asked once per cold start. */
  pythonSnapshot(): Promise<ArrayBuffer>;
}

/** The guest's env: the host's calls, bound to the agent, and its address. */
export interface GuestEnv {
  HOST: HostCalls;
  AGENT_ADDRESS: string;
}

/** Shortest interval period: alarms below a second would only burn CPU. */
export const MIN_INTERVAL_SECONDS = 1;

/**
 * Wall-clock budget of each call into a hosted agent's code, in ms: past it the call is aborted and the agent
 * stopped (guest/guard.ts inside the isolate, runtime/watchdog.ts in the host, which waits a little longer).
 */
export const GUEST_BUDGET_MS = {
  describe: 10_000,
  message: 30_000,
  rest: 30_000,
  startup: 30_000,
  shutdown: 10_000,
  interval: 30_000,
} as const;

export type GuestCallKind = keyof typeof GUEST_BUDGET_MS;

/** Longest synchronous run of a hosted agent's code, in ms, before the guard stops it (see guest/guard.ts). */
export const GUEST_SLICE_MS = 500;

/**
 * Binary memory (ArrayBuffers and typed arrays) a hosted agent's isolate may hold at once, in bytes: Cloudflare's
 * memory limit per isolate, so code that stays within it locally also runs deployed (see guest/memory-meter.ts).
 */
export const GUEST_MEMORY_BYTES = 128 * 1024 * 1024;

/** Starts the message of an error that says the agent's code went over its budget (the host stops the agent). */
export const OVER_BUDGET_TAG = '[over budget]';
