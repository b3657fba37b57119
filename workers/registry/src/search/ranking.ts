/**
 * Relevance, stage 1 (in SQL, over every match): field-weighted bm25 times bounded quality and trust factors.
 *   score = bm25_weighted × (1 + CLICK_WEIGHT·c/(c+CLICK_HALF)) × (1 + AGENT_RANK_WEIGHT·a/(a+AGENT_RANK_HALF)) × (1 + FEATURED_WEIGHT·featured)
 *           × q × (UNREACHABLE_FACTOR when the registry's last liveness probe of the agent failed)
 * c = clicks on the agent for this query (distinct search sessions, as of the session's start), a = AgentRank
 * (interactions between different accounts only, interactions/agent-rank.ts), q = text quality in [0.5, 1]
 * (keyword stuffing and substance, computed at write time, text-quality.ts). Saturating factors: evidence can
 * lift a good match, never bury the text match; together they move a score by at most ×2.6 up, ×0.5 down.
 * The factors that do not depend on the query (all but clicks) are also the quality prior that decides which
 * agents a query of only common words ranks: 0016_search_prior_from_agent_rank.sql repeats them in SQL, so a
 * change here is a new migration there (docs/decisions/0198).
 */

/** bm25 weight per column of search_agents_fts, in its column order. Title and tags above description above README. */
const COLUMN_WEIGHTS = {
  name: 10,
  tags: 6,
  description: 4,
  use_cases: 3,
  functions: 2,
  readme: 1,
  address: 1,
  /** Listed/unlisted marker, not text (0003_search_listing.sql). */
  listing: 0,
} as const;

const CLICK_WEIGHT = 1;
const CLICK_HALF = 3;
/**
 * Interactions count only through AgentRank, never as a raw count: one owner's agents messaging each other
 * (capped at 10 a day per pair, yet free to repeat across pairs) would otherwise lift them.
 */
const AGENT_RANK_WEIGHT = 0.2;
const AGENT_RANK_HALF = 1;
const FEATURED_WEIGHT = 0.1;
/**
 * An agent whose last liveness probe failed (liveness/probe.ts) keeps a third of its score: found, but below
 * agents that answer, for everyone. The registry's own verdict, not callers' reports, which anyone could forge.
 * Unprobed agents (no verdict yet) are not demoted.
 */
const UNREACHABLE_FACTOR = 0.35;

/** Stage 2 (rerank: true) rescores this many of the best stage-1 hits. */
export const RERANK_WINDOW = 50;

export function bm25Expression(table: string): string {
  return `bm25(${table}, ${Object.values(COLUMN_WEIGHTS)
    .map((weight) => weight.toFixed(1))
    .join(', ')})`;
}

/** SQL of the stage-1 factors for agent facts `f` and click count `clicks` (a column or expression). */
export function feedbackFactor(clicks: string): string {
  return (
    `(1 + ${CLICK_WEIGHT} * 1.0 * ${clicks} / (${clicks} + ${CLICK_HALF}))` +
    ` * (1 + ${AGENT_RANK_WEIGHT} * f.agent_rank / (f.agent_rank + ${AGENT_RANK_HALF}))` +
    ' * f.text_quality' +
    ` * (1 + ${FEATURED_WEIGHT} * f.featured)` +
    ` * (CASE WHEN f.last_probe_ok = 0 THEN ${UNREACHABLE_FACTOR} ELSE 1 END)`
  );
}
