import { agentColumns } from '../agents/columns.ts';
import type { AgentHit } from './agent-search-types.ts';
import { agentVector } from './concepts/concept-vectors.ts';

/**
 * Demotion of keyword stuffing: an agent whose text spreads over many unrelated domains (the lists of every
 * popular task that spam puts in titles, tags and READMEs) keeps a smaller share of its score. Breadth is the
 * participation ratio of the agent's concept vector (concepts/): 1 / Σ w⁴ over its unit vector, the number of
 * concepts its weight is effectively spread over. Repeating a word moves it little (counts are log-damped).
 * Measured on the judged corpus's 152 agents: median 3.9, 90th percentile 6.3, the broadest honest agent 9.1,
 * the four stuffed ones 9.6–15.2. The factor is 1 up to BREADTH_FREE and falls linearly to FLOOR at twice that:
 * bounded, so a broad agent that fits a request still ranks, only below one as good that does one thing.
 */
const BREADTH_FREE = 8;
const FLOOR = 0.5;
/** README characters read: its start says what the agent does, and bounds the work per row. */
const README_CHARS = 4000;

/** Stuffing is judged on the best rows of a relevancy-ranked page; the rest keep their order. */
export const STUFFING_WINDOW = 20;

export function conceptBreadth(row: Pick<AgentHit, 'name' | 'description' | 'tags' | 'use_cases' | 'readme'>): number {
  const vector = agentVector({
    name: row.name ?? '',
    description: row.description ?? '',
    tags: agentColumns.tags(row.tags).join(' '),
    use_cases: agentColumns.use_cases(row.use_cases).join(' '),
    functions: '',
    readme: (row.readme ?? '').slice(0, README_CHARS),
  });
  let fourth = 0;
  for (const weight of vector.values()) fourth += weight ** 4;
  return fourth > 0 ? 1 / fourth : 0;
}

export function stuffingFactor(breadth: number): number {
  if (breadth <= BREADTH_FREE) return 1;
  return Math.max(FLOOR, 1 - ((1 - FLOOR) * (breadth - BREADTH_FREE)) / BREADTH_FREE);
}

/** The rows reordered by score × stuffingFactor; ties keep their order. */
export function demoteStuffing<T extends AgentHit>(rows: readonly T[]): T[] {
  return rows
    .map((row, index) => ({ row, index, score: row.score * stuffingFactor(conceptBreadth(row)) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map(({ row }) => row);
}
