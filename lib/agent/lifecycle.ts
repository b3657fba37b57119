import { registerAgent, updateAgentStatus } from '../registry-client/index.ts';
import type { BoundAgent } from './bound.ts';
import { agentContext } from './context.ts';
import type { HandlerTable } from './handlers.ts';

/** Per isolate and agent address: Workers have no process start, so "started" means "seen an event". */
interface Lifecycle {
  started: boolean;
  registeredAt: number | null;
  failures: number;
  nextAttemptAt: number;
  inFlight: Promise<void> | null;
}

const lifecycles = new Map<string, Lifecycle>();

const IN_EVENT_DELAYS_MS = [1000, 2000, 4000];
const MAX_PAUSE_MS = 5 * 60 * 1000;
const REFRESH_MS = 30 * 60 * 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function lifecycleOf(address: string): Lifecycle {
  let state = lifecycles.get(address);
  if (!state) {
    state = { started: false, registeredAt: null, failures: 0, nextAttemptAt: 0, inFlight: null };
    lifecycles.set(address, state);
  }
  return state;
}

async function register<Env>(agent: BoundAgent<Env>): Promise<void> {
  const { settings, definition } = agent;
  await registerAgent({
    seed: settings.seed,
    index: settings.index ?? 0,
    url: settings.webhookUrl,
    token: settings.registryToken!,
    title: definition.title,
    readme: definition.readme,
    description: definition.description,
    protocols: definition.protocols,
    handle: definition.handle,
    registryUrl: settings.registryUrl,
    fetch: agent.fetch,
  });
}

/** Registration with backoff: a few tries within this event, then a growing pause before later events try again. */
async function registerWithBackoff<Env>(agent: BoundAgent<Env>, state: Lifecycle): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await register(agent);
      state.registeredAt = Date.now();
      state.failures = 0;
      return;
    } catch (error) {
      const delay = IN_EVENT_DELAYS_MS[attempt];
      if (delay === undefined) {
        state.failures++;
        state.nextAttemptAt = Date.now() + Math.min(MAX_PAUSE_MS, 5000 * 2 ** state.failures);
        console.error(
          `agent ${agent.definition.name}: registration failed ${state.failures} time(s), next try after ${new Date(state.nextAttemptAt).toISOString()}: ${(error as Error).message}`,
        );
        return;
      }
      await sleep(delay);
    }
  }
}

/**
 * Called on every event the agent handles (request, queue batch, cron): the first one of an isolate
 * fires the startup handlers; registration runs when it has not succeeded yet, or is due for refresh.
 * Neither delays the event: both run in waitUntil.
 */
export function ensureStarted<Env>(agent: BoundAgent<Env>, table: HandlerTable<Env>): void {
  const state = lifecycleOf(agent.identity.address);
  if (!state.started) {
    state.started = true;
    const ctx = agentContext(agent);
    agent.executionCtx.waitUntil(
      Promise.all(table.startup.map(async (handler) => handler(ctx))).then(
        () => undefined,
        (error: unknown) => console.error(`agent ${agent.definition.name}: startup handler failed`, error),
      ),
    );
  }
  if (!agent.settings.registryToken || state.inFlight) return;
  const now = Date.now();
  if (state.registeredAt !== null && now - state.registeredAt < REFRESH_MS) return;
  if (now < state.nextAttemptAt) return;
  state.inFlight = registerWithBackoff(agent, state).finally(() => {
    state.inFlight = null;
  });
  agent.executionCtx.waitUntil(state.inFlight);
}

/** Runs the shutdown handlers and signs the agent inactive (Workers give no signal of their own). */
export async function shutDown<Env>(agent: BoundAgent<Env>, table: HandlerTable<Env>): Promise<void> {
  const ctx = agentContext(agent);
  for (const handler of table.shutdown) await handler(ctx);
  if (agent.settings.registryToken) {
    await updateAgentStatus({
      seed: agent.settings.seed,
      index: agent.settings.index ?? 0,
      active: false,
      registryUrl: agent.settings.registryUrl,
      fetch: agent.fetch,
    });
  }
  const state = lifecycleOf(agent.identity.address);
  state.registeredAt = null;
  state.started = false;
}
