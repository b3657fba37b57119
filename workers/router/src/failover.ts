import type { AgentContext, Message } from '../../../lib/agent/index.ts';
import { forgetFailure, rememberFailure } from './failing-agents.ts';
import { slotShard } from './slots.ts';

/**
 * Agents offered one request at most: a crowd of dead candidates must not keep the user waiting. Five, not
 * three: before the negative cache knows them, a burst of users all meet the same dead lookalikes first.
 */
const MAX_CANDIDATES = 5;
/** How long one agent has to acknowledge the request (with lib/agent's retries inside it) while others remain. */
const ACK_TIMEOUT_MS = 4_000;
/** The last candidate gets longer: there is no one to move on to, and a busy agent is not a dead one. */
const LAST_ACK_TIMEOUT_MS = 20_000;

export type Handover = { ok: true; agent: string } | { ok: false; failure: string };

/**
 * Offers the request to the candidates in order, in the one session `requestId`, until one acknowledges
 * it. Its slot, opened by the caller, names the first candidate; it always names the agent the request is
 * with, so only that agent's answer is filed; each one passed over is recorded with a code (never its URL
 * or its answer's text, which the client may see).
 */
export async function handOver(
  agent: AgentContext<RouterEnv>,
  requestId: string,
  candidates: string[],
  message: Message,
): Promise<Handover> {
  const tried = candidates.slice(0, MAX_CANDIDATES);
  const slot = slotShard(agent.env, requestId);
  const reasons: string[] = [];
  for (const [index, candidate] of tried.entries()) {
    const timeout = index === tried.length - 1 ? LAST_ACK_TIMEOUT_MS : ACK_TIMEOUT_MS;
    const status = await agent.deliver(candidate, message, { session: requestId, timeout });
    if (status.status === 'delivered') {
      forgetFailure(candidate);
      await slot.markDelivered(requestId);
      return { ok: true, agent: candidate };
    }
    console.warn(`router: request ${requestId} not taken by ${candidate}: ${status.detail}`);
    rememberFailure(candidate);
    const reason = status.code ?? 'no_answer';
    reasons.push(`${candidate} (${reason})`);
    const next = tried[index + 1];
    if (next) await slot.passOver(requestId, reason, next);
    else {
      const failure = `none of the ${tried.length} trusted agent${tried.length > 1 ? 's' : ''} found could take the request: ${reasons.join(', ')}`;
      await slot.fail(requestId, reason, failure);
      return { ok: false, failure };
    }
  }
  throw new Error('handOver needs at least one candidate');
}
