import { describe, expect, it } from 'vitest';
import { evaluate, formatEvaluation, KINDS } from './fixtures/judged/evaluate.ts';
import { HELD_OUT_2_QUERIES, heldOut2Agents } from './fixtures/judged/heldout-2.ts';
import { seededJudgedSearch } from './fixtures/judged/seeded-search.ts';
import type { QueryKind } from './fixtures/judged/spec.ts';

/**
 * Held-out set 2 (fixtures/judged/heldout-2.ts: the judged agents plus spam and lookalikes, 213 queries written by
 * someone who had not read the ranking code, never tuned on) through the registry's HTTP interface, default
 * search, no request flags. A benchmark held as floors just under what bench:relevance measures (docs/decisions/0216:
 * overall MRR 0.880, natural language 0.728, keyword 1.000, typo 0.953, prefix 0.979, payload 1.000, trap 0.974):
 * the goals (0.92 overall, 0.85 natural language) are not reached, and these floors only stop a regression.
 */
const MRR_FLOOR = 0.875;
const KIND_MRR_FLOORS: Record<QueryKind, number> = { natural: 0.72, keyword: 0.97, typo: 0.94, prefix: 0.96, payload: 0.98, trap: 0.95 };

const { ranker } = seededJudgedSearch(heldOut2Agents());

describe('held-out set 2', () => {
  it(`the default search reaches MRR ≥ ${MRR_FLOOR} overall and each kind's floor`, async () => {
    const evaluation = await evaluate(HELD_OUT_2_QUERIES, ranker());
    console.log(formatEvaluation('held-out set 2, default search', evaluation));
    expect(evaluation.overall.mrr).toBeGreaterThanOrEqual(MRR_FLOOR);
    for (const kind of KINDS) expect(evaluation.byKind[kind].mrr, kind).toBeGreaterThanOrEqual(KIND_MRR_FLOORS[kind]);
  }, 300_000);
});
