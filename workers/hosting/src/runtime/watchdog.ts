import { setState } from '../agents/store.ts';
import { GUEST_BUDGET_MS, type GuestCallKind, OVER_BUDGET_TAG } from '../guest/protocol.ts';

/** How much longer than the guest's own budget the host waits: the guard inside the guest answers first where it can. */
const HOST_MARGIN_MS = 2_000;

/** The runtime's own refusals of a Dynamic Worker past its limits (deployed: CPU time, memory). */
const RUNTIME_LIMITS = [/exceeded (its )?cpu/i, /cpu time limit/i, /memory limit/i, /exceeded resource limits/i, /out of memory/i];

function failureMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Why a failed call means the agent went over a budget or limit, or null when it failed otherwise. */
function overBudget(error: unknown): string | null {
  const message = failureMessage(error);
  const tagged = message.indexOf(OVER_BUDGET_TAG);
  if (tagged >= 0) return message.slice(tagged + OVER_BUDGET_TAG.length).trim();
  return RUNTIME_LIMITS.some((limit) => limit.test(message)) ? `the runtime stopped it: ${message}` : null;
}

/**
 * Stops an agent that went over a budget: no more messages (503 to senders), no intervals, until its owner
 * starts it again. The owner reads why in its logs; its record says `running: false`.
 */
async function halt(env: HostingEnv, address: string, kind: GuestCallKind, reason: string): Promise<void> {
  await setState(env.DB, address, { running: false });
  // The agent's Durable Object, as hostedAgentStub names it (not imported: hosted-agent.ts runs intervals through here).
  const agent = env.HOSTED_AGENT.get(env.HOSTED_AGENT.idFromName(address));
  await agent.unschedule();
  await agent.log('erro', 'system', `stopped: ${reason} (during a ${kind} call). Fix the code, then start the agent again.`);
}

/**
 * One call into a hosted agent's code under the watchdog: it answers within its wall-clock budget, or the host
 * stops waiting; a call over its budget (the host's timer, the guest's guard, or the runtime's CPU and memory
 * limits) stops the agent, so one tenant's runaway code does not keep taking the time others need.
 */
export async function watched<T>(env: HostingEnv, address: string, kind: GuestCallKind, call: () => Promise<T>): Promise<T> {
  const budget = GUEST_BUDGET_MS[kind];
  let timer: ReturnType<typeof setTimeout> | null = null;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${OVER_BUDGET_TAG} the ${kind} call did not answer within its budget of ${budget} ms`)),
      budget + HOST_MARGIN_MS,
    );
  });
  try {
    return await Promise.race([call(), timeout]);
  } catch (error) {
    const reason = overBudget(error);
    if (reason === null) throw error;
    await halt(env, address, kind, reason);
    throw new Error(`the agent was stopped: ${reason}`);
  } finally {
    if (timer !== null) clearTimeout(timer);
  }
}
