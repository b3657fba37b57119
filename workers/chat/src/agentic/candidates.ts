import { ownAgentsResponseSchema } from '../../../../schemas/own-agents.ts';
import { agentDetailSchema } from '../../../../schemas/registry.ts';
import type { StepEvent } from '../completion/events.ts';
import { registryFetch } from '../discovery/registry-fetch.ts';
import type { FoundAgent, SearchFailure } from '../discovery/search.ts';
import { searchPublicAgents } from './public-search.ts';
import type { RegistryAccess } from './registry-access.ts';
import { stepEvent } from './steps.ts';
import { targetOf, type Target } from './target.ts';
import { evidenceOf, rankByEvidence, topicWords } from './trust.ts';

/** Registry hits considered: enough that a trusted agent a few places down is seen. */
const SEARCHED = 10;
/** Candidates kept after ranking (the steps list them; at most 3 are tried). */
const KEPT = 5;
/** The caller's own agents looked up in detail at most (one registry call each). */
const OWN_LOOKED_UP = 3;
const SEARCH_TEXT_CHARS = 500;

export type CandidateFailure = SearchFailure | { kind: 'no_agent_key'; status: null; retryAfter: null };

export type Candidates =
  | { ok: true; targets: Target[]; step: StepEvent }
  | { ok: false; failure: CandidateFailure | null; step: StepEvent };

/**
 * The caller's own agents that may fit (by name and functions), in detail: private ones are found nowhere
 * else. Nothing when the caller's key has no `read` (or the registry says no): then only public agents count.
 */
async function ownAgents(env: ChatEnv, access: RegistryAccess, searchText: string, signal: AbortSignal): Promise<FoundAgent[] | null> {
  try {
    const listed = await registryFetch(env, access.callerKey, '/v2/agents', { method: 'GET', signal });
    if (!listed.ok) {
      await listed.body?.cancel();
      return null;
    }
    const page = ownAgentsResponseSchema.safeParse(await listed.json());
    if (!page.success) return null;
    const asked = topicWords(searchText);
    const fitting = page.data.agents
      .filter((agent) => {
        const own = topicWords([agent.name, ...agent.functions.flatMap((fn) => [fn.name, fn.description])].join(' '));
        for (const word of asked) if (own.has(word)) return true;
        return false;
      })
      .slice(0, OWN_LOOKED_UP);
    const details = await Promise.all(
      fitting.map(async (agent) => {
        const response = await registryFetch(env, access.callerKey, `/v2/agents/${agent.address}`, { method: 'GET', signal });
        if (!response.ok) {
          await response.body?.cancel();
          return [];
        }
        const detail = agentDetailSchema.safeParse(await response.json());
        return detail.success ? [detail.data] : [];
      }),
    );
    return details.flat();
  } catch (error) {
    if (signal.aborted) throw error;
    console.warn('chat: the caller’s own agents could not be listed', error);
    return null;
  }
}

/**
 * The agents that may answer, most trusted first (agentic/trust.ts): the registry searched by the chat agent
 * as itself (public agents), plus the caller's own agents when its key may read them. The search step lists
 * what was found and says whose agents were considered.
 */
export async function findCandidates(
  env: ChatEnv,
  access: RegistryAccess,
  question: string,
  earlier: string[],
  self: string,
  signal: AbortSignal,
): Promise<Candidates> {
  // A follow-up ("and in 2023?") is searched with the questions before it, or it finds nothing.
  const searchText = [...earlier, question].join(' ').slice(-SEARCH_TEXT_CHARS).trim();
  const searchStep = (text: string, found: FoundAgent[], total: number, error: string | null) =>
    stepEvent({
      step: 'search',
      text,
      query: searchText,
      candidates: found.map(({ address, name, status }) => ({ address, name, status })),
      total,
      error,
    });
  if (!access.agentKey) {
    const error = 'the chat agent has no registry key of its own (CHAT_AGENT_REGISTRY_KEY)';
    return { ok: false, failure: { kind: 'no_agent_key', status: null, retryAfter: null }, step: searchStep(error, [], 0, error) };
  }
  const [searched, own] = await Promise.all([
    searchPublicAgents(env, access.agentKey, searchText, SEARCHED, signal),
    ownAgents(env, access, searchText, signal),
  ]);
  if (searched.failure) {
    return { ok: false, failure: searched.failure, step: searchStep(`searched the registry: ${searched.error}`, [], 0, searched.error) };
  }
  const ownAddresses = new Set((own ?? []).map((agent) => agent.address));
  const all = [...searched.agents, ...(own ?? []).filter((agent) => !searched.agents.some((hit) => hit.address === agent.address))];
  // Never itself: a question sent to the chat agent would come back to this endpoint.
  const ranked = rankByEvidence(
    all
      .filter((found) => found.address !== self)
      .map((found, rank) => ({ item: found, found, evidence: evidenceOf(found, ownAddresses.has(found.address)), rank })),
    searchText,
  ).slice(0, KEPT);
  const whose = own === null ? 'public agents (your key cannot read your own agents)' : 'public agents and your own';
  const text = `searched the registry for "${searchText}" as the chat agent: ${all.length} candidate(s) among ${whose}`;
  const step = searchStep(text, all, searched.total + (all.length - searched.agents.length), null);
  const targets = ranked.map((candidate) => targetOf(candidate.found, candidate.evidence.own));
  if (!targets.length) return { ok: false, failure: null, step };
  return { ok: true, targets, step: { ...step, manifests: targets.map((target) => target.manifest) } };
}
