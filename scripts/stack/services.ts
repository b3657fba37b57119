import { join } from 'node:path';
import { createAgentKeys } from './agent-keys.ts';
import { viteDev } from './client.ts';
import { readDevVars } from './dev-vars.ts';
import { ensureExampleHostedAgent } from './hosting-example.ts';
import { featureAgent } from './feature-agent.ts';
import { localVars } from './local-vars.ts';
import { INSPECTOR_PORTS, type Ports, type ServiceName } from './ports.ts';
import { spawnService, StartError, waitForHttp, type ServiceProcess } from './process.ts';
import { registeredWithin } from './registered.ts';
import { signInactive } from './sign-inactive.ts';
import { storeAgentKeys, type WorkerName, type ensureSecrets } from './secrets.ts';
import { wranglerDev } from './wrangler-dev.ts';

/** What the services of one stack share: where they listen, keep state and log, their secrets and agents. */
export interface StackPlan {
  root: string;
  ports: Ports;
  urls: Record<ServiceName, string>;
  persistDir: string;
  logDir: string;
  files: Record<WorkerName, string>;
  secrets: ReturnType<typeof ensureSecrets>;
  routerAddress: string;
  specialistAddress: string;
  chatAgentAddress: string;
  progress: (line: string) => void;
  /** Open each Worker's DevTools inspector; off unless asked (npm start -- --inspect). */
  inspect: boolean;
}

/** How a service starts, and what "ready" means for it. */
export interface ServiceRecipe {
  spawn: () => ServiceProcess;
  ready: (service: ServiceProcess) => Promise<void>;
  /** After its process has ended: an agent's Worker signs its agent inactive (sign-inactive.ts). */
  stopped?: () => Promise<void>;
}

/** Each service's recipe. URLs follow the chosen ports; ALLOWED_ORIGINS lets the client call the registry, chat and hosting APIs. */
export function serviceRecipes(plan: StackPlan): Record<ServiceName, ServiceRecipe> {
  const { root, ports, urls, persistDir, logDir, files, secrets } = plan;
  const local = localVars(urls, { router: plan.routerAddress, chatAgent: plan.chatAgentAddress });
  const worker = (name: WorkerName, config: string, vars: Record<string, string>, revivePath?: string) =>
    wranglerDev({
      revivePath,
      name,
      root,
      config,
      port: ports[name],
      inspectorPort: plan.inspect ? INSPECTOR_PORTS[name] : undefined,
      persistDir,
      envFile: files[name],
      vars: { ...local[name], ...vars },
      logDir,
    });
  const registered = (service: ServiceProcess, address: string) => waitRegistered(urls.registry, service, address);
  const inactive = (seed: string) => () => signInactive(urls.registry, seed, plan.progress);

  return {
    registry: {
      spawn: () => worker('registry', 'wrangler.toml', { ALLOWED_ORIGINS: urls.client }),
      ready: async (service) => {
        await waitForHttp(service, '/health');
        await ensureAgentKeys(plan);
      },
    },
    chat: {
      spawn: () => worker('chat', 'workers/chat/wrangler.toml', { ALLOWED_ORIGINS: urls.client }),
      // The chat agent registers on its first request (the health check); the specialist serves registered senders only.
      ready: async (service) => {
        await waitForHttp(service, '/health');
        await registered(service, plan.chatAgentAddress);
      },
      stopped: inactive(secrets.chat.CHAT_AGENT_SEED!),
    },
    edgar: {
      spawn: () =>
        spawnService({
          name: 'edgar',
          url: urls.edgar,
          command: join(root, 'node_modules/.bin/tsx'),
          args: ['scripts/dev/edgar-server.ts', '--port', String(ports.edgar)],
          cwd: root,
          logFile: join(logDir, 'edgar.log'),
        }),
      ready: (service) => waitForHttp(service, '/'),
    },
    specialist: {
      spawn: () => worker('specialist', 'workers/specialist/wrangler.toml', {}),
      // Registered, then verified by the operator (featured): the agent llm1-agentic trusts first for its questions.
      ready: async (service) => {
        await waitForHttp(service, '/health');
        await registered(service, plan.specialistAddress);
        await featureAgent(urls.registry, secrets.registry.ADMIN_TOKEN!, plan.specialistAddress);
      },
      stopped: inactive(secrets.specialist.FINANCIAL_AGENT_KEY!),
    },
    router: {
      spawn: () => worker('router', 'workers/router/wrangler.toml', { CLIENT_ORIGIN: urls.client }),
      ready: async (service) => {
        await waitForHttp(service, '/health');
        await registered(service, plan.routerAddress);
      },
      stopped: inactive(secrets.router.PRIMARY_AGENT_KEY!),
    },
    // The sealing keys' Worker: hosting reaches it over RPC (VAULT), so it runs first.
    vault: {
      spawn: () => worker('vault', 'workers/hosting-vault/wrangler.toml', {}),
      ready: (service) => waitForHttp(service, '/health'),
    },
    hosting: {
      // Hosted code runs here: a runtime that a tenant's heap brought down is started again (worker-dev.ts --revive).
      spawn: () => worker('hosting', 'workers/hosting/wrangler.toml', { ALLOWED_ORIGINS: urls.client }, '/health'),
      ready: async (service) => {
        await waitForHttp(service, '/health');
        const address = await ensureExampleHostedAgent({
          root,
          hostingUrl: urls.hosting,
          registryUrl: urls.registry,
          adminToken: secrets.registry.ADMIN_TOKEN!,
          stateDir: persistDir,
        });
        await registered(service, address);
      },
    },
    client: {
      spawn: () => viteDev({ root, port: ports.client, urls, logDir }),
      ready: (service) => waitForHttp(service, '/'),
    },
  };
}

/**
 * Keeps the agents' working keys; creates them with the admin token when one is missing or refused, or
 * when both agents still share one registry key (a checkout from before each agent had its own).
 */
async function ensureAgentKeys(plan: StackPlan): Promise<void> {
  const { files, urls } = plan;
  const router = readDevVars(files.router).REGISTRY_API_KEY;
  const specialist = readDevVars(files.specialist);
  const hosting = readDevVars(files.hosting).REGISTRY_API_KEY;
  const chatAgent = readDevVars(files.chat).CHAT_AGENT_REGISTRY_KEY;
  const kept =
    router && specialist.REGISTRY_API_KEY && specialist.CHAT_API_KEY && hosting && chatAgent && router !== specialist.REGISTRY_API_KEY;
  const works = (key: string) => keyWorks(urls.registry, key);
  const working = async () =>
    (await works(router!)) && (await works(specialist.REGISTRY_API_KEY!)) && (await works(hosting!)) && (await works(chatAgent!));
  if (kept && (await working())) return;
  plan.progress('creating the agents’ API keys');
  storeAgentKeys(files, await createAgentKeys(urls.registry, plan.secrets.registry.ADMIN_TOKEN!));
}

async function keyWorks(registryUrl: string, key: string): Promise<boolean> {
  const response = await fetch(`${registryUrl}/v1/search/agents`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ search_text: '', limit: 1 }),
  });
  return response.ok;
}

/** An agent is ready once the registry resolves its address (the almanac lookup every sender uses). */
async function waitRegistered(registryUrl: string, service: ServiceProcess, address: string, timeoutMs = 60_000): Promise<void> {
  const alive = () => {
    if (service.child.exitCode !== null) throw new StartError(service, `exited with code ${service.child.exitCode}`);
  };
  if (!(await registeredWithin(registryUrl, address, timeoutMs, alive)))
    throw new StartError(service, `did not register ${address} within ${timeoutMs / 1000} s`);
}
