import { agentColumns } from '../agents/columns.ts';
import type { ExpandedQuery } from './text/expand.ts';
import { normalizeText } from './text/tokenize.ts';

/**
 * Stage 2 of relevance (`rerank: true`): the best RERANK_WINDOW hits are rescored with evidence bm25 does
 * not see — the title containing the query's words, a tag equal to one of them, the whole text appearing as
 * a phrase — and a stronger pull from click feedback. Hits beyond the window keep stage-1 order.
 */
export interface RerankCandidate {
  score: number;
  clicks: number;
  name: string;
  tags: string;
  description: string;
  address: string;
}

const TITLE_WEIGHT = 0.6;
const TAG_WEIGHT = 0.3;
const PHRASE_WEIGHT = 0.3;
const CLICK_WEIGHT = 1;

function words(text: string): string[] {
  return normalizeText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** A word of the text equals a form, or extends one of 3+ letters (plurals, the word being typed). */
function matchesWord(candidates: readonly string[], forms: readonly string[]): boolean {
  return candidates.some((word) => forms.some((form) => word === form || (form.length >= 3 && word.startsWith(form))));
}

function rerankScore(candidate: RerankCandidate, query: ExpandedQuery): number {
  const title = words(candidate.name);
  const tagWords = agentColumns.tags(candidate.tags).flatMap((tag) => words(tag));
  const covered = query.groups.filter((group) => matchesWord(title, [group.word, ...group.alternatives])).length;
  const tagged = query.groups.some((group) => matchesWord(tagWords, [group.word, ...group.alternatives]));
  const phrase = query.words.length > 1 && normalizeText(`${candidate.name} ${candidate.description}`).includes(query.words.join(' '));
  return (
    candidate.score *
    (1 + (TITLE_WEIGHT * covered) / query.groups.length) *
    (1 + (tagged ? TAG_WEIGHT : 0)) *
    (1 + (phrase ? PHRASE_WEIGHT : 0)) *
    (1 + (CLICK_WEIGHT * candidate.clicks) / (candidate.clicks + 1))
  );
}

/** Reorders candidates by stage-2 score; ties keep the stage-1 order (address breaks remaining ties). */
export function rerank<T extends RerankCandidate>(candidates: readonly T[], query: ExpandedQuery): T[] {
  return candidates
    .map((candidate, index) => ({ candidate, index, score: rerankScore(candidate, query) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map(({ candidate }) => candidate);
}
