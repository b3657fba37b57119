import { Identity } from '../../lib/identity/index.ts';
import { updateAgentStatus } from '../../lib/registry-client/index.ts';

const SIGN_TIMEOUT_MS = 5_000;

/**
 * What a uAgents agent does when it stops: a status update signed with its key saying it is inactive, so the
 * almanac shows `inactive` at once instead of after a failed liveness probe. A Worker gets no signal when its
 * process ends, so the stack, which holds each agent's seed, signs for the agent once its Worker has stopped.
 * A registry that cannot be reached (stopped first) is said, not thrown: the stop goes on.
 */
export async function signInactive(registryUrl: string, seed: string, progress: (line: string) => void): Promise<void> {
  try {
    await updateAgentStatus({
      seed,
      active: false,
      registryUrl,
      fetch: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(SIGN_TIMEOUT_MS) }),
    });
  } catch (error) {
    progress(`could not sign ${Identity.fromSeed(seed, 0).address} inactive: ${(error as Error).message}`);
  }
}
