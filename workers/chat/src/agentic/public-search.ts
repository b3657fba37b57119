import { searchAgents } from '../discovery/search.ts';

type Outcome = Awaited<ReturnType<typeof searchAgents>>;

/**
 * How long a search the chat agent made as itself is reused. Its results are public agents, the same for
 * every caller, and a hybrid search costs the registry about 20 ms of CPU (bench:agentic), the most of any
 * hop of a turn: a crowd asking the same thing, or the follow-ups of one subject, share one search. Short,
 * so that a new agent is found, and a gone one dropped, within seconds; an unreachable one is failed over.
 */
const REUSE_MS = 10_000;
const MAX_ENTRIES = 500;

const recent = new Map<string, { outcome: Outcome; until: number }>();
const inFlight = new Map<string, Promise<Outcome>>();

function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/**
 * `searchAgents` with the chat agent's own key, shared: the same search text within REUSE_MS (or while
 * the same search is under way) is answered once. A failed search is never reused. One caller leaving
 * does not cancel the search the others wait on.
 */
export async function searchPublicAgents(env: ChatEnv, agentKey: string, searchText: string, limit: number, signal: AbortSignal) {
  const key = `${limit}\n${agentKey}\n${searchText}`;
  const cached = recent.get(key);
  if (cached && cached.until > Date.now()) return cached.outcome;
  let pending = inFlight.get(key);
  if (!pending) {
    pending = searchAgents(env, agentKey, searchText, limit, new AbortController().signal)
      .then((outcome) => {
        if (outcome.failure) return outcome;
        if (recent.size >= MAX_ENTRIES) recent.clear();
        recent.set(key, { outcome, until: Date.now() + REUSE_MS });
        return outcome;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return Promise.race([pending, untilAborted(signal)]);
}
