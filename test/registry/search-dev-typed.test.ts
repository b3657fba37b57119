import { describe, expect, it } from 'vitest';
import { devNaturalAgents } from './fixtures/judged/dev-natural.ts';
import { DEV_TYPED_QUERIES } from './fixtures/judged/dev-typed.ts';
import { evaluate, formatEvaluation } from './fixtures/judged/evaluate.ts';
import { seededJudgedSearch } from './fixtures/judged/seeded-search.ts';

/**
 * Development set 4 (fixtures/judged/dev-typed.ts: 52 prefix and 52 payload requests over the judged, spam and
 * lookalike agents) through the registry's HTTP interface, default search, no request flags. Floors sit just under
 * what bench:relevance measures (docs/decisions/0210: prefix 0.981, payload 0.942), so a change that costs
 * search-as-you-type or payload field names (snake_case, camelCase, spaced) fails.
 */
const PREFIX_MRR_FLOOR = 0.97;
const PAYLOAD_MRR_FLOOR = 0.93;

const agents = devNaturalAgents();
const { ranker } = seededJudgedSearch(agents);

describe('development set 4, prefixes and payload field names', () => {
  it('has 50+ requests of each kind, each judged against agents of the corpus', () => {
    const keys = new Set(agents.map((agent) => agent.key));
    for (const kind of ['prefix', 'payload'] as const)
      expect(DEV_TYPED_QUERIES.filter((query) => query.kind === kind).length).toBeGreaterThanOrEqual(50);
    for (const query of DEV_TYPED_QUERIES) for (const key of query.relevant) expect(keys.has(key), `${query.query} → ${key}`).toBe(true);
  });

  it(`the default search reaches MRR ≥ ${PREFIX_MRR_FLOOR} on prefixes and ≥ ${PAYLOAD_MRR_FLOOR} on payload field names`, async () => {
    const evaluation = await evaluate(DEV_TYPED_QUERIES, ranker());
    console.log(formatEvaluation('development set 4 (dev-typed), default search', evaluation));
    expect(evaluation.byKind.prefix.mrr).toBeGreaterThanOrEqual(PREFIX_MRR_FLOOR);
    expect(evaluation.byKind.payload.mrr).toBeGreaterThanOrEqual(PAYLOAD_MRR_FLOOR);
  }, 300_000);
});
