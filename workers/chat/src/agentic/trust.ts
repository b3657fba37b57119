import { stemmer } from 'stemmer';
import { type StepTrust, TRUST_TIERS } from '../../../../schemas/chat.ts';
import type { FoundAgent } from '../discovery/search.ts';

/**
 * What llm1-agentic knows about an agent beyond its own words, all from the registry's record of it: whether
 * the operator features it (verified), whether it is the caller's own, whether it answers (liveness), how many
 * interactions the registry counted for it from agents of OTHER accounts (one owner's agents messaging each other
 * prove nothing; issue 25's AgentRank counts the same edges), and how long it has been registered. Names, READMEs and keywords
 * are the agent's own claims: they decide whether it is relevant at all, never how far it is trusted.
 */
export interface Evidence {
  verified: boolean;
  own: boolean;
  live: boolean;
  interactions: number;
  ageDays: number;
}

/** The order of trust, most trusted first (docs/decisions/0121). */
const TIERS = TRUST_TIERS;
type Tier = StepTrust['tier'];

/** An agent other accounts' agents interacted with this often (last 30 days), registered this many days, has a track record. */
const ESTABLISHED_INTERACTIONS = 10;
const ESTABLISHED_DAYS = 14;

export function evidenceOf(found: FoundAgent, own: boolean, now = Date.now()): Evidence {
  const created = Date.parse(found.created_at);
  return {
    verified: found.featured,
    own,
    live: found.status === 'active' || found.status === 'local',
    interactions: found.cross_account_interactions,
    ageDays: Number.isFinite(created) ? Math.max(0, Math.floor((now - created) / 86_400_000)) : 0,
  };
}

function tierOf(evidence: Evidence): Tier {
  if (!evidence.live) return 'offline';
  if (evidence.verified) return 'verified';
  if (evidence.own) return 'yours';
  if (evidence.interactions >= ESTABLISHED_INTERACTIONS && evidence.ageDays >= ESTABLISHED_DAYS) return 'established';
  return 'new';
}

/** The evidence as the steps show it. */
export function stepTrust(evidence: Evidence): StepTrust {
  return {
    tier: tierOf(evidence),
    verified: evidence.verified,
    own: evidence.own,
    live: evidence.live,
    interactions: evidence.interactions,
    age_days: evidence.ageDays,
  };
}

/** One line for people: why this agent may be trusted as far as it is. */
export function describeEvidence(evidence: Evidence): string {
  const tier = tierOf(evidence);
  const standing = {
    verified: 'verified by this platform’s operator',
    yours: 'one of your own agents',
    established: 'not verified, with a track record',
    new: 'not verified, and new or little used',
    offline: 'not answering the registry’s liveness probe',
  }[tier];
  const age = evidence.ageDays === 1 ? '1 day' : `${evidence.ageDays} days`;
  return `${standing} (${evidence.interactions} interaction(s) from other accounts’ agents, registered ${age} ago)`;
}

const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be but by can could did do does for from get give had has have help how i in into is it its me my ' +
    'need of on or our please show some tell than that the their them then there these they this to us use want was ' +
    'we were what when where which who why will with would you your agent agents about also and much many any'
  ).split(' '),
);

/** The distinct topic words of a text, stemmed: a word said ten times is one word. */
export function topicWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const [raw] of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    if (raw.length < 2 || STOPWORDS.has(raw)) continue;
    words.add(stemmer(raw));
  }
  return words;
}

/** The agent's own description of itself, as far as relevance is read from it (never the README). */
function selfDescription(found: FoundAgent): string {
  return [
    found.name,
    found.handle ?? '',
    found.description,
    ...found.use_cases,
    ...found.tags,
    ...found.functions.map((fn) => fn.name),
  ].join(' ');
}

/** A candidate with the registry's order (its relevance) and its evidence. */
export interface Ranked<T> {
  item: T;
  found: FoundAgent;
  evidence: Evidence;
  /** Position in the registry's answer: relevance, used only between agents of the same tier. */
  rank: number;
}

/**
 * The candidates in the order they are asked: those sharing a topic word with the question before those that
 * do not (a word counts once, however often the agent repeats it), then the most trusted tier first, then the
 * registry's relevance order. Keyword stuffing can win relevance within a tier, never a tier.
 */
export function rankByEvidence<T>(candidates: Ranked<T>[], question: string): Ranked<T>[] {
  const asked = topicWords(question);
  const offTopic = (candidate: Ranked<T>) => {
    const own = topicWords(selfDescription(candidate.found));
    for (const word of asked) if (own.has(word)) return 0;
    return 1;
  };
  const keyed = candidates.map((candidate) => ({
    candidate,
    offTopic: offTopic(candidate),
    tier: TIERS.indexOf(tierOf(candidate.evidence)),
  }));
  return keyed
    .toSorted((a, b) => a.offTopic - b.offTopic || a.tier - b.tier || a.candidate.rank - b.candidate.rank)
    .map(({ candidate }) => candidate);
}
