import { join, resolve } from 'node:path';
import { Identity } from '../../lib/identity/index.ts';
import { applyMigrations } from './migrations.ts';
import { DEFAULT_PORTS, type Ports, type ServiceName } from './ports.ts';
import { ensureSecrets, secretsFiles } from './secrets.ts';
import { serviceRecipes, type StackPlan } from './services.ts';
import { superviseServices } from './supervisor.ts';

export interface StackOptions {
  ports?: Partial<Ports>;
  /** Local state of D1, Durable Objects and KV (wrangler --persist-to); `.wrangler/state` by default. */
  persistDir?: string;
  /** Secrets files; the Workers' own .dev.vars by default, a temp dir in tests. */
  secretsDir?: string;
  /** Service logs; `<persistDir>/../logs` by default. */
  logDir?: string;
  /** Start the browser client (Vite dev server); true by default. */
  client?: boolean;
  /** Progress lines while starting. */
  onProgress?: (line: string) => void;
  /** Open each Worker's DevTools inspector (INSPECTOR_PORTS); off by default: an inspector reaches the isolate's secrets. */
  inspect?: boolean;
}

export interface Stack {
  ports: Ports;
  urls: Record<ServiceName, string>;
  logDir: string;
  routerAddress: string;
  specialistAddress: string;
  /** The chat Worker's agent (llm1-agentic). */
  chatAgentAddress: string;
  /** Starts one service (prerequisites are the caller's business: see startStack for the spec's order). */
  start(name: ServiceName): Promise<void>;
  stop(name: ServiceName): Promise<void>;
  isRunning(name: ServiceName): boolean;
  /** The process group of a running service (it and everything it spawned), for CPU accounting (bench:e2e). */
  processGroup(name: ServiceName): number | undefined;
  /** Stops every running service, last started first. */
  stopAll(): Promise<void>;
}

export const ROOT = resolve(import.meta.dirname, '../..');

/** Where the stack listens, keeps its state and logs, its secrets (made when missing) and its agents' addresses. */
function planStack(options: StackOptions): StackPlan {
  const ports: Ports = { ...DEFAULT_PORTS, ...options.ports };
  const persistDir = resolve(options.persistDir ?? join(ROOT, '.wrangler/state'));
  const files = secretsFiles(ROOT, options.secretsDir);
  const secrets = ensureSecrets(files);
  const urls = Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, `http://localhost:${port}`])) as Record<
    ServiceName,
    string
  >;
  return {
    root: ROOT,
    ports,
    urls,
    persistDir,
    logDir: resolve(options.logDir ?? join(persistDir, '../logs')),
    files,
    secrets,
    routerAddress: Identity.fromSeed(secrets.router.PRIMARY_AGENT_KEY!, 0).address,
    specialistAddress: Identity.fromSeed(secrets.specialist.FINANCIAL_AGENT_KEY!, 0).address,
    chatAgentAddress: Identity.fromSeed(secrets.chat.CHAT_AGENT_SEED!, 0).address,
    progress: options.onProgress ?? (() => {}),
    inspect: options.inspect ?? false,
  };
}

/**
 * Prepares the stack without starting anything: secrets, D1 migrations. Services then start one by one
 * with `start`, which waits until each is ready (for the specialist: until it has registered).
 */
export async function createStack(options: StackOptions = {}): Promise<Stack> {
  const plan = planStack(options);
  plan.progress('applying D1 migrations');
  await applyMigrations(ROOT, plan.persistDir);
  const supervisor = superviseServices(serviceRecipes(plan), plan.ports, plan.urls, plan.progress);
  const { ports, urls, logDir, routerAddress, specialistAddress, chatAgentAddress } = plan;
  return { ports, urls, logDir, routerAddress, specialistAddress, chatAgentAddress, ...supervisor };
}

/**
 * The spec's start order: registry, chat, EDGAR data, specialist (registered), router, then the hosting vault and
 * hosting (its example agent registered), client.
 */
export const START_ORDER: ServiceName[] = ['registry', 'chat', 'edgar', 'specialist', 'router', 'vault', 'hosting', 'client'];

/** Starts the whole stack in the spec's order; on a failure, stops what was started and rethrows. */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const stack = await createStack(options);
  try {
    for (const name of START_ORDER) if (name !== 'client' || options.client !== false) await stack.start(name);
  } catch (error) {
    await stack.stopAll();
    throw error;
  }
  return stack;
}
