/**
 * Relevance, stage 1 (in SQL, over every match): field-weighted bm25 times feedback, popularity and liveness factors.
 *   score = bm25_weighted × (1 + CLICK_WEIGHT·c/(c+CLICK_HALF)) × (1 + POPULARITY_WEIGHT·r/(r+POPULARITY_HALF)) × (1 + FEATURED_WEIGHT·featured)
 *           × (UNREACHABLE_FACTOR when the registry's last liveness probe of the agent failed)
 * c = clicks on the agent for this query (distinct search sessions, as of the session's start),
 * r = recent interactions. Saturating factors: feedback can lift a good match, never bury the text match.
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
const POPULARITY_WEIGHT = 0.15;
const POPULARITY_HALF = 500;
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
    ` * (1 + ${POPULARITY_WEIGHT} * 1.0 * f.recent_interactions / (f.recent_interactions + ${POPULARITY_HALF}))` +
    ` * (1 + ${FEATURED_WEIGHT} * f.featured)` +
    ` * (CASE WHEN f.last_probe_ok = 0 THEN ${UNREACHABLE_FACTOR} ELSE 1 END)`
  );
}
