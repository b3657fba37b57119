import type { AgentExecutionContext } from '../../../../lib/agent/index.ts';
import { registerAgent, updateAgentStatus } from '../../../../lib/registry-client/index.ts';
import { failureText, guestOf } from '../runtime/guest-loader.ts';
import { hostedAgentStub } from '../runtime/hosted-agent.ts';
import { platformFetch, submitUrl } from '../runtime/platform-fetch.ts';
import { watched } from '../runtime/watchdog.ts';
import type { AgentRow } from './records.ts';
import { deleteAgentRow, findAgent, setState } from './store.ts';
import { open } from './vault.ts';

/**
 * Start, stop and delete of a hosted agent. Start loads the code (a failed load: compiled false, the error
 * in the logs, not running), starts its intervals, runs its startup handlers and registers it in the registry
 * with the platform's submit URL as its endpoint. Stop undoes each, and marks it inactive in the registry.
 */

const system = (env: HostingEnv, address: string, level: 'info' | 'warn' | 'erro', entry: string) =>
  hostedAgentStub(env, address).log(level, 'system', entry);

export async function startAgent(env: HostingEnv, ctx: AgentExecutionContext, row: AgentRow): Promise<AgentRow> {
  const guest = guestOf(env, row);
  let periods: number[];
  try {
    periods = (await watched(env, row.address, 'describe', () => guest.describe())).intervals;
  } catch (error) {
    await setState(env.DB, row.address, { compiled: false, running: false });
    await hostedAgentStub(env, row.address).unschedule();
    await system(env, row.address, 'erro', `the code failed to load: ${failureText(error)}`);
    return (await findAgent(env.DB, row.address))!;
  }
  await setState(env.DB, row.address, { compiled: true, running: true });
  await hostedAgentStub(env, row.address).schedule(row.address, periods);
  await system(env, row.address, 'info', `started (revision ${row.revision}, code ${row.code_digest?.slice(0, 12)})`);
  ctx.waitUntil(
    watched(env, row.address, 'startup', () => guest.startup()).catch((error: unknown) =>
      system(env, row.address, 'erro', `startup failed: ${failureText(error)}`),
    ),
  );
  await register(env, row);
  return (await findAgent(env.DB, row.address))!;
}

export async function stopAgent(env: HostingEnv, row: AgentRow): Promise<AgentRow> {
  await setState(env.DB, row.address, { running: false });
  await hostedAgentStub(env, row.address).unschedule();
  if (row.running === 1) {
    if (row.compiled === 1) {
      const guest = guestOf(env, row);
      await watched(env, row.address, 'shutdown', () => guest.shutdown()).catch((error: unknown) =>
        system(env, row.address, 'erro', `shutdown failed: ${failureText(error)}`),
      );
    }
    const seed = await open(env, row.sealed_seed);
    await updateAgentStatus({ seed, active: false, registryUrl: env.REGISTRY_URL, fetch: platformFetch(env) }).catch((error: unknown) =>
      system(env, row.address, 'warn', `could not mark the agent inactive in the registry: ${failureText(error)}`),
    );
    await system(env, row.address, 'info', 'stopped');
  }
  return (await findAgent(env.DB, row.address))!;
}

/** Everything of the agent: its registry entry, storage, logs, schedule, secrets and record. */
export async function deleteAgent(env: HostingEnv, row: AgentRow): Promise<void> {
  if (row.running === 1) await stopAgent(env, row);
  if (env.REGISTRY_API_KEY) {
    const response = await platformFetch(env)(`${env.REGISTRY_URL.replace(/\/+$/, '')}/v2/agents/${row.address}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${env.REGISTRY_API_KEY}` },
    });
    await response.body?.cancel();
    if (!response.ok && response.status !== 404)
      console.error(`hosted agent ${row.address}: registry deletion answered ${response.status}`);
  }
  await hostedAgentStub(env, row.address).wipe();
  await deleteAgentRow(env.DB, row.address);
}

/** Registers (or refreshes) the agent in the registry; a failure is logged and the agent keeps running. */
async function register(env: HostingEnv, row: AgentRow): Promise<void> {
  if (!env.REGISTRY_API_KEY) {
    await system(env, row.address, 'warn', 'not registered: the platform has no REGISTRY_API_KEY');
    return;
  }
  try {
    await registerAgent({
      seed: await open(env, row.sealed_seed),
      url: submitUrl(env),
      token: env.REGISTRY_API_KEY,
      title: row.name,
      readme: row.readme ?? '',
      description: row.short_description ?? undefined,
      registryUrl: env.REGISTRY_URL,
      agentType: 'hosted',
      fetch: platformFetch(env),
    });
    await system(env, row.address, 'info', `registered in the registry at ${submitUrl(env)}`);
  } catch (error) {
    await system(env, row.address, 'erro', `registration failed: ${failureText(error)}`);
  }
}
