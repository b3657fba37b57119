import { beforeAll, describe, expect, it } from 'vitest';
import type { CorpusAgent } from './fixtures/corpus/generate.ts';
import corpus from './fixtures/search-corpus.json';
import judged from './fixtures/search-relevance-queries.json';
import { searchAgents } from './fixtures/search-client.ts';
import { seedRegistry } from './fixtures/seeded-registry.ts';

/**
 * Relevance over a realistic corpus (360 agents, search-corpus.json) and 60 judged queries
 * (search-relevance-queries.json: plain, typo, prefix, synonym, tag and natural-language queries).
 * Reports MRR (first result of the query's top grade) and nDCG@10 (gain 2^grade - 1), overall and per kind,
 * and fails under the floors below.
 */
const MRR_FLOOR = 0.9;
const NDCG_FLOOR = 0.9;
const KIND_NDCG_FLOOR = 0.8;

interface Rule {
  domain: string;
  entity?: string;
  grade: number;
}
interface Judgement {
  query: string;
  kind: string;
  rules: Rule[];
}

const agents = (corpus as { agents: CorpusAgent[] }).agents;
const listed = agents.filter((agent) => agent.is_active);
const queries = (judged as { queries: Judgement[] }).queries;

function gradeOf(agent: CorpusAgent, rules: Rule[]): number {
  return Math.max(
    0,
    ...rules.filter((rule) => rule.domain === agent.domain && (!rule.entity || rule.entity === agent.entity)).map((rule) => rule.grade),
  );
}

const dcg = (grades: number[]) => grades.reduce((sum, grade, i) => sum + (2 ** grade - 1) / Math.log2(i + 2), 0);

let token: string;

beforeAll(async () => {
  token = (await seedRegistry(agents)).token;
});

describe('search relevance', () => {
  it('judged queries cover the corpus: every query has an agent of its top grade', () => {
    expect(queries.length).toBeGreaterThanOrEqual(40);
    expect(agents.length).toBeGreaterThanOrEqual(300);
    for (const { query, rules } of queries) {
      const top = Math.max(...rules.map((rule) => rule.grade));
      expect(
        listed.some((agent) => gradeOf(agent, rules) === top),
        query,
      ).toBe(true);
    }
  });

  it(`reaches MRR ≥ ${MRR_FLOOR} and nDCG@10 ≥ ${NDCG_FLOOR}`, async () => {
    const byAddress = new Map(agents.map((agent) => [agent.address, agent]));
    const results: { query: string; kind: string; rr: number; ndcg: number }[] = [];
    for (const { query, kind, rules } of queries) {
      const page = await searchAgents(token, { search_text: query, limit: 10 });
      const grades = page.agents.map((found) => gradeOf(byAddress.get(found.address)!, rules));
      const top = Math.max(...rules.map((rule) => rule.grade));
      const firstTop = grades.indexOf(top);
      const ideal = listed
        .map((agent) => gradeOf(agent, rules))
        .sort((a, b) => b - a)
        .slice(0, 10);
      results.push({ query, kind, rr: firstTop < 0 ? 0 : 1 / (firstTop + 1), ndcg: dcg(grades) / dcg(ideal) });
    }
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const mrr = mean(results.map((r) => r.rr));
    const ndcg = mean(results.map((r) => r.ndcg));
    const kinds = [...new Set(results.map((r) => r.kind))].map((kind) => {
      const of = results.filter((r) => r.kind === kind);
      return { kind, queries: of.length, mrr: mean(of.map((r) => r.rr)), ndcg: mean(of.map((r) => r.ndcg)) };
    });
    console.log(
      `search relevance: ${results.length} queries over ${agents.length} agents: MRR ${mrr.toFixed(3)}, nDCG@10 ${ndcg.toFixed(3)}`,
    );
    for (const k of kinds)
      console.log(`  ${k.kind.padEnd(8)} ${String(k.queries).padStart(2)} queries  MRR ${k.mrr.toFixed(3)}  nDCG@10 ${k.ndcg.toFixed(3)}`);
    for (const r of results.filter((r) => r.ndcg < 0.6))
      console.log(`  weak: "${r.query}" RR ${r.rr.toFixed(2)} nDCG@10 ${r.ndcg.toFixed(2)}`);
    expect(mrr).toBeGreaterThanOrEqual(MRR_FLOOR);
    expect(ndcg).toBeGreaterThanOrEqual(NDCG_FLOOR);
    for (const k of kinds) expect(k.ndcg, k.kind).toBeGreaterThanOrEqual(KIND_NDCG_FLOOR);
  });
});
