import { describe, expect, it } from 'vitest';
import { DEV_NATURAL_QUERIES, devNaturalAgents } from './fixtures/judged/dev-natural.ts';
import { DEV_PLAIN_QUERIES } from './fixtures/judged/dev-plain.ts';
import { evaluate, formatEvaluation, stems } from './fixtures/judged/evaluate.ts';
import { seededJudgedSearch } from './fixtures/judged/seeded-search.ts';

/**
 * Development sets 3 (fixtures/judged/dev-natural.ts: 156 plain-language requests over the judged, spam and lookalike
 * agents) and 5 (dev-plain.ts: 40 more, a fresh slice) through the registry's HTTP interface, default search, no
 * request flags. Floors sit just under what bench:relevance measures (docs/decisions/0216: dev-natural natural
 * language 0.934, trap 0.906, overall 0.931; dev-plain 0.883), so a change that costs plain-language understanding fails.
 */
const NATURAL_MRR_FLOOR = 0.925;
const TRAP_MRR_FLOOR = 0.9;
const MRR_FLOOR = 0.925;
const PLAIN_MRR_FLOOR = 0.875;

const agents = devNaturalAgents();
const { ranker } = seededJudgedSearch(agents);

describe('development set 3, plain-language requests', () => {
  it('has 120+ and 40+ requests, each judged against agents of the corpus; natural ones share no word with their first agent’s title', () => {
    expect(DEV_NATURAL_QUERIES.length).toBeGreaterThanOrEqual(120);
    const byKey = new Map(agents.map((agent) => [agent.key, agent]));
    expect(DEV_PLAIN_QUERIES.length).toBeGreaterThanOrEqual(40);
    for (const query of [...DEV_NATURAL_QUERIES, ...DEV_PLAIN_QUERIES]) {
      for (const key of query.relevant) expect(byKey.has(key), `${query.query} → ${key}`).toBe(true);
      if (query.kind !== 'natural') continue;
      const title = new Set(stems(byKey.get(query.relevant[0]!)!.name));
      expect(
        stems(query.query).filter((stem) => title.has(stem)),
        query.query,
      ).toEqual([]);
    }
  });

  it(`the default search reaches MRR ≥ ${MRR_FLOOR} overall, natural language ≥ ${NATURAL_MRR_FLOOR}, traps ≥ ${TRAP_MRR_FLOOR}`, async () => {
    const evaluation = await evaluate(DEV_NATURAL_QUERIES, ranker());
    console.log(formatEvaluation('development set 3 (dev-natural), default search', evaluation));
    expect(evaluation.overall.mrr).toBeGreaterThanOrEqual(MRR_FLOOR);
    expect(evaluation.byKind.natural.mrr).toBeGreaterThanOrEqual(NATURAL_MRR_FLOOR);
    expect(evaluation.byKind.trap.mrr).toBeGreaterThanOrEqual(TRAP_MRR_FLOOR);
  }, 300_000);

  it(`the default search reaches MRR ≥ ${PLAIN_MRR_FLOOR} on the fresh slice (dev-plain)`, async () => {
    const evaluation = await evaluate(DEV_PLAIN_QUERIES, ranker());
    console.log(formatEvaluation('development set 5 (dev-plain), default search', evaluation));
    expect(evaluation.overall.mrr).toBeGreaterThanOrEqual(PLAIN_MRR_FLOOR);
  }, 300_000);
});
