import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Identity } from '../../lib/identity/index.ts';
import { viteDev } from './client.ts';
import { readDevVars } from './dev-vars.ts';
import { createAgentKeys } from './agent-keys.ts';
import { localVars } from './local-vars.ts';
import { registeredWithin } from './registered.ts';
import { ensureExampleHostedAgent } from './hosting-example.ts';
import { DEFAULT_PORTS, INSPECTOR_PORTS, type Ports, type ServiceName } from './ports.ts';
import { assertPortFree, spawnService, StartError, waitForHttp, type ServiceProcess } from './process.ts';
import { ensureSecrets, secretsFiles, storeAgentKeys, type WorkerName } from './secrets.ts';
import { wranglerDev } from './wrangler-dev.ts';

const run = promisify(execFile);

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

/**
 * Prepares the stack without starting anything: secrets, D1 migrations. Services then start one by one
 * with `start`, which waits until each is ready (for the specialist: until it has registered).
 */
export async function createStack(options: StackOptions = {}): Promise<Stack> {
  const ports: Ports = { ...DEFAULT_PORTS, ...options.ports };
  const persistDir = resolve(options.persistDir ?? join(ROOT, '.wrangler/state'));
  const logDir = resolve(options.logDir ?? join(persistDir, '../logs'));
  const progress = options.onProgress ?? (() => {});
  const files = secretsFiles(ROOT, options.secretsDir);
  const secrets = ensureSecrets(files);
  const urls = Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, `http://localhost:${port}`])) as Record<
    ServiceName,
    string
  >;
  const routerAddress = Identity.fromSeed(secrets.router.PRIMARY_AGENT_KEY!, 0).address;
  const specialistAddress = Identity.fromSeed(secrets.specialist.FINANCIAL_AGENT_KEY!, 0).address;
  const chatAgentAddress = Identity.fromSeed(secrets.chat.CHAT_AGENT_SEED!, 0).address;

  progress('applying D1 migrations');
  for (const config of ['wrangler.toml', 'workers/hosting/wrangler.toml']) {
    await run(
      join(ROOT, 'node_modules/.bin/wrangler'),
      ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persistDir, '--config', config],
      {
        cwd: ROOT,
        env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' },
      },
    );
  }

  const running = new Map<ServiceName, ServiceProcess>();
  const order: ServiceName[] = [];

  const local = localVars(urls, routerAddress);
  const worker = (name: WorkerName, config: string, vars: Record<string, string>) =>
    wranglerDev({
      name,
      root: ROOT,
      config,
      port: ports[name],
      inspectorPort: options.inspect ? INSPECTOR_PORTS[name] : undefined,
      persistDir,
      envFile: files[name],
      vars: { ...local[name], ...vars },
      logDir,
    });

  /** How each service starts, and what "ready" means for it. URLs follow the chosen ports; ALLOWED_ORIGINS lets the client call the registry and chat APIs. */
  const services: Record<ServiceName, { spawn: () => ServiceProcess; ready: (service: ServiceProcess) => Promise<void> }> = {
    registry: {
      spawn: () => worker('registry', 'wrangler.toml', { ALLOWED_ORIGINS: urls.client }),
      ready: async (service) => {
        await waitForHttp(service, '/health');
        await ensureRegistryKey();
      },
    },
    chat: {
      spawn: () => worker('chat', 'workers/chat/wrangler.toml', { ALLOWED_ORIGINS: urls.client }),
      // The chat agent registers on its first request (the health check); the specialist serves registered senders only.
      ready: async (service) => {
        await waitForHttp(service, '/health');
        await waitRegistered(service, chatAgentAddress);
      },
    },
    edgar: {
      spawn: () =>
        spawnService({
          name: 'edgar',
          url: urls.edgar,
          command: join(ROOT, 'node_modules/.bin/tsx'),
          args: ['scripts/dev/edgar-server.ts', '--port', String(ports.edgar)],
          cwd: ROOT,
          logFile: join(logDir, 'edgar.log'),
        }),
      ready: (service) => waitForHttp(service, '/'),
    },
    specialist: {
      spawn: () => worker('specialist', 'workers/specialist/wrangler.toml', {}),
      ready: async (service) => {
        await waitForHttp(service, '/health');
        await waitRegistered(service, specialistAddress);
      },
    },
    router: {
      spawn: () => worker('router', 'workers/router/wrangler.toml', { CLIENT_ORIGIN: urls.client }),
      ready: async (service) => {
        await waitForHttp(service, '/health');
        await waitRegistered(service, routerAddress);
      },
    },
    hosting: {
      spawn: () => worker('hosting', 'workers/hosting/wrangler.toml', { ALLOWED_ORIGINS: urls.client }),
      ready: async (service) => {
        await waitForHttp(service, '/health');
        const address = await ensureExampleHostedAgent({
          root: ROOT,
          hostingUrl: urls.hosting,
          registryUrl: urls.registry,
          adminToken: secrets.registry.ADMIN_TOKEN!,
          stateDir: persistDir,
        });
        await waitRegistered(service, address);
      },
    },
    client: {
      spawn: () => viteDev({ root: ROOT, port: ports.client, urls, logDir }),
      ready: (service) => waitForHttp(service, '/'),
    },
  };

  /**
   * Keeps the agents' working keys; creates them with the admin token when one is missing or refused, or
   * when both agents still share one registry key (a checkout from before each agent had its own).
   */
  async function ensureRegistryKey(): Promise<void> {
    const router = readDevVars(files.router).REGISTRY_API_KEY;
    const specialist = readDevVars(files.specialist);
    const hosting = readDevVars(files.hosting).REGISTRY_API_KEY;
    const chatAgent = readDevVars(files.chat).CHAT_AGENT_REGISTRY_KEY;
    const kept =
      router && specialist.REGISTRY_API_KEY && specialist.CHAT_API_KEY && hosting && chatAgent && router !== specialist.REGISTRY_API_KEY;
    const working = async () =>
      (await keyWorks(router!)) &&
      (await keyWorks(specialist.REGISTRY_API_KEY!)) &&
      (await keyWorks(hosting!)) &&
      (await keyWorks(chatAgent!));
    if (kept && (await working())) return;
    progress('creating the agents’ API keys');
    storeAgentKeys(files, await createAgentKeys(urls.registry, secrets.registry.ADMIN_TOKEN!));
  }

  async function keyWorks(key: string): Promise<boolean> {
    const response = await fetch(`${urls.registry}/v1/search/agents`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ search_text: '', limit: 1 }),
    });
    return response.ok;
  }

  /** An agent is ready once the registry resolves its address (the almanac lookup every sender uses). */
  async function waitRegistered(service: ServiceProcess, address: string, timeoutMs = 60_000): Promise<void> {
    const alive = () => {
      if (service.child.exitCode !== null) throw new StartError(service, `exited with code ${service.child.exitCode}`);
    };
    if (!(await registeredWithin(urls.registry, address, timeoutMs, alive)))
      throw new StartError(service, `did not register ${address} within ${timeoutMs / 1000} s`);
  }

  const stack: Stack = {
    ports,
    urls,
    logDir,
    routerAddress,
    specialistAddress,
    chatAgentAddress,
    async start(name) {
      if (running.has(name)) return;
      progress(`starting ${name} on ${urls[name]}`);
      await assertPortFree(name, ports[name]);
      running.set(name, services[name].spawn());
      order.push(name);
      try {
        await services[name].ready(running.get(name)!);
      } catch (error) {
        await stack.stop(name);
        throw error;
      }
    },
    async stop(name) {
      const service = running.get(name);
      if (!service) return;
      running.delete(name);
      order.splice(order.indexOf(name), 1);
      await service.stop();
    },
    isRunning: (name) => running.has(name),
    // spawnService starts each service detached: the leader of its own group, whose id is its pid.
    processGroup: (name) => running.get(name)?.child.pid,
    async stopAll() {
      for (const name of [...order].reverse()) await stack.stop(name);
    },
  };
  return stack;
}

/** The spec's start order: registry, chat, EDGAR data, specialist (registered), router, then hosting (its example agent registered), client. */
export const START_ORDER: ServiceName[] = ['registry', 'chat', 'edgar', 'specialist', 'router', 'hosting', 'client'];

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
