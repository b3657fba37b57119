import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Identity } from '../lib/identity/index.ts';
import { createAgentKeys } from '../scripts/stack/agent-keys.ts';
import { readDevVars } from '../scripts/stack/dev-vars.ts';
import { localVars } from '../scripts/stack/local-vars.ts';
import { spawnService, waitForHttp } from '../scripts/stack/process.ts';
import { registeredWithin } from '../scripts/stack/registered.ts';
import { ensureSecrets, secretsFiles, storeAgentKeys } from '../scripts/stack/secrets.ts';
import { startMiniflareStack } from './miniflare-stack.ts';

/** Ports of this runtime, off the stack's own, so that it can run beside `npm start`. */
const PORTS = { registry: 9701, chat: 9702, edgar: 9703, specialist: 9704, router: 9705 };

const run = promisify(execFile);

export interface WorkersStack {
  urls: { router: string; chat: string; registry: string };
  /** The registry's admin token (the operator's), to mint keys and feature agents. */
  adminToken: string;
  /** The specialist's address. */
  specialistAddress: string;
  /** The specialist's console output (its timing lines). */
  workerdLog: string;
  /** The EDGAR data server's request log. */
  edgarLog: string;
  /** Process group of the EDGAR data server. */
  edgarGroup: number;
  /** The pid of each workerd (children of this process): registry and chat share one. */
  runtimes: Record<'registry+chat' | 'specialist' | 'router', number>;
  stop(): Promise<void>;
}

/**
 * The reference flow's Workers (registry, chat, specialist, router) through Miniflare, each on its own
 * socket, built as `wrangler deploy` builds them: the Workers as the edge runs them, without what
 * `wrangler dev` adds around each one (its proxy Worker, its inspector's capture of every subrequest, a log
 * line per request through its node). Set up as `npm start` sets up its stack: D1 migrated by wrangler, the
 * agents' seeds and keys minted through the registry's API, the EDGAR data server beside.
 */
export async function startWorkersStack(root: string, work: string, logDir: string): Promise<WorkersStack> {
  const url = (port: number) => `http://127.0.0.1:${port}`;
  const files = secretsFiles(root, join(work, 'secrets'));
  const secrets = ensureSecrets(files);
  const persistTo = join(work, 'persist');
  await run(
    join(root, 'node_modules/.bin/wrangler'),
    ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persistTo, '--config', 'wrangler.toml'],
    { cwd: root, env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' } },
  );
  const routerAddress = Identity.fromSeed(secrets.router.PRIMARY_AGENT_KEY!, 0).address;
  const local = localVars(
    {
      registry: url(PORTS.registry),
      chat: url(PORTS.chat),
      edgar: url(PORTS.edgar),
      specialist: url(PORTS.specialist),
      router: url(PORTS.router),
    },
    { router: routerAddress, chatAgent: Identity.fromSeed(secrets.chat.CHAT_AGENT_SEED!, 0).address },
  );
  const registry = { config: 'wrangler.toml', port: PORTS.registry, vars: { ...secrets.registry, ...local.registry } };

  // The registry alone first: the agents' keys are minted through its API before the agents start.
  const keysOnly = await startMiniflareStack({ root, work: join(work, 'keys'), workers: { registry }, persistTo });
  try {
    storeAgentKeys(files, await createAgentKeys(url(PORTS.registry), secrets.registry.ADMIN_TOKEN!));
  } finally {
    await keysOnly.stop();
  }

  const edgar = spawnService({
    name: 'edgar',
    url: url(PORTS.edgar),
    command: join(root, 'node_modules/.bin/tsx'),
    args: ['scripts/dev/edgar-server.ts', '--port', String(PORTS.edgar)],
    cwd: root,
    logFile: join(logDir, 'edgar.log'),
  });
  await waitForHttp(edgar, '/');
  const vars = (name: 'chat' | 'specialist' | 'router') => ({ ...readDevVars(files[name]), ...local[name] });
  // One workerd per group of Workers that bind each other (registry and chat; the agents talk over HTTP), so
  // that they run side by side as on the edge rather than taking turns on one runtime thread.
  const [keys, specialist, router] = await Promise.all([
    startMiniflareStack({
      root,
      work: join(work, 'registry-chat'),
      persistTo,
      workers: {
        registry,
        chat: {
          config: 'workers/chat/wrangler.toml',
          port: PORTS.chat,
          vars: vars('chat'),
        },
      },
    }),
    startMiniflareStack({
      root,
      work: join(work, 'specialist'),
      workers: {
        specialist: {
          config: 'workers/specialist/wrangler.toml',
          port: PORTS.specialist,
          vars: vars('specialist'),
        },
      },
    }),
    startMiniflareStack({
      root,
      work: join(work, 'router'),
      workers: {
        router: {
          config: 'workers/router/wrangler.toml',
          port: PORTS.router,
          vars: vars('router'),
        },
      },
    }),
  ]);
  const urls = { chat: keys.urls.chat, specialist: specialist.urls.specialist, router: router.urls.router };
  const stop = async () => {
    await Promise.all([keys.stop(), specialist.stop(), router.stop()]);
    await edgar.stop();
  };
  // Each agent registers on its Worker's first request; the router then needs the specialist in the registry.
  const agents = {
    chat: secrets.chat.CHAT_AGENT_SEED!,
    specialist: secrets.specialist.FINANCIAL_AGENT_KEY!,
    router: secrets.router.PRIMARY_AGENT_KEY!,
  };
  try {
    for (const [name, seed] of Object.entries(agents) as [keyof typeof agents, string][]) {
      await fetch(`${urls[name]}/health`);
      const address = Identity.fromSeed(seed, 0).address;
      if (!(await registeredWithin(url(PORTS.registry), address, 60_000)))
        throw new Error(`${address} did not register within 60 s (see the Workers' log)`);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    urls: { router: urls.router, chat: urls.chat, registry: url(PORTS.registry) },
    adminToken: secrets.registry.ADMIN_TOKEN!,
    specialistAddress: Identity.fromSeed(agents.specialist, 0).address,
    workerdLog: join(work, 'specialist', 'workerd.log'),
    edgarLog: edgar.logFile,
    edgarGroup: edgar.child.pid!,
    runtimes: { 'registry+chat': listener(PORTS.registry), specialist: listener(PORTS.specialist), router: listener(PORTS.router) },
    stop,
  };
}

/** The process listening on a local TCP port, from /proc: which workerd runs which Worker. */
function listener(port: number): number {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  // /proc/net/tcp: `sl local_address rem_address st … inode`; state 0A is LISTEN.
  const inode = readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .find((fields) => fields[1]?.endsWith(`:${hexPort}`) && fields[3] === '0A')?.[9];
  if (!inode) throw new Error(`nothing listens on port ${port}`);
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`) return Number(pid);
      } catch {
        // The descriptor closed while we looked.
      }
    }
  }
  throw new Error(`no process holds the socket listening on port ${port}`);
}
