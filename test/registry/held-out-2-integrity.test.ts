import { describe, expect, it } from 'vitest';
import { judgedAgents } from './fixtures/judged/spec.ts';
import { HELD_OUT_2_QUERIES, heldOut2Agents } from './fixtures/judged/heldout-2.ts';

/** The second held-out set is well formed: it says nothing about ranking, only that its judgements can be scored. */
describe('second held-out relevance set', () => {
  const agents = heldOut2Agents();
  const keys = new Set(agents.map((agent) => agent.key));

  it('adds spam and lookalike agents without changing the judged corpus', () => {
    const judged = judgedAgents();
    expect(agents.slice(0, judged.length)).toEqual(judged);
    const added = agents.slice(judged.length).map((agent) => agent.key);
    expect(added.length).toBeGreaterThanOrEqual(15);
    expect(added.every((key) => key.startsWith('spam-') || key.startsWith('lookalike-'))).toBe(true);
    expect(keys.size).toBe(agents.length);
  });

  it('judges at least 150 distinct queries, each naming existing, non-adversarial agents', () => {
    expect(HELD_OUT_2_QUERIES.length).toBeGreaterThanOrEqual(150);
    expect(new Set(HELD_OUT_2_QUERIES.map((q) => q.query.toLowerCase())).size).toBe(HELD_OUT_2_QUERIES.length);
    for (const { query, relevant } of HELD_OUT_2_QUERIES) {
      expect(relevant.length, query).toBeGreaterThan(0);
      for (const key of relevant) {
        expect(keys.has(key), `${query}: ${key}`).toBe(true);
        expect(/^(spam|lookalike|stuffed)-/.test(key), `${query}: ${key}`).toBe(false);
      }
    }
  });

  it('covers all six kinds, about 40% of them natural language', () => {
    const counts = new Map<string, number>();
    for (const { kind } of HELD_OUT_2_QUERIES) counts.set(kind, (counts.get(kind) ?? 0) + 1);
    for (const kind of ['natural', 'keyword', 'typo', 'prefix', 'payload', 'trap'])
      expect(counts.get(kind) ?? 0).toBeGreaterThanOrEqual(20);
    const natural = (counts.get('natural') ?? 0) / HELD_OUT_2_QUERIES.length;
    expect(natural).toBeGreaterThanOrEqual(0.35);
    expect(natural).toBeLessThanOrEqual(0.45);
  });
});
