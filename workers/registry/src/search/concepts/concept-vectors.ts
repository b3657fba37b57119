import { stemmer } from 'stemmer';
import { CONTEXT_WEIGHT, splitContext } from '../text/context.ts';
import { splitIdentifiers } from '../text/identifiers.ts';
import { STOPWORDS } from '../text/stopwords.ts';
import { normalizeText } from '../text/tokenize.ts';
import { CONCEPTS } from './lexicon.ts';

/**
 * Sparse concept vectors: the offline semantic signal. A text is mapped onto the concepts of lexicon.ts
 * (a query through terms and cues, an agent through terms only) and texts are compared by cosine. An agent
 * whose text touches many concepts (a README listing every domain) spreads its weight over all of them, so
 * its cosine with a one-concept request is small: breadth normalisation comes with the measure.
 */

export type ConceptVector = Map<number, number>;

/**
 * Shapes of a query word that stand for a domain, read in queries only: a year (1900–2099: "rates for 2019" asks
 * for history), an OBD-II fault code ("p0420": car diagnostics), a flight number ("ba283": flight status). Each is
 * read as the first word of its concept's line.
 */
const SHAPES: readonly { shape: RegExp; concept: string }[] = [
  { shape: /^(19|20)\d\d$/, concept: 'historical' },
  { shape: /^[pbcu][0-3][0-9a-f]{3}$/, concept: 'obd' },
  { shape: /^[a-z]{2}\d{2,4}$/, concept: 'status' },
];

/** A bare number or a single letter (the parts of "10-k", "p&l") names no concept: "10" is not a filing. */
const NAMES_NOTHING = /^(\d+|\p{L})$/u;

function words(text: string): string[] {
  return normalizeText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word && !STOPWORDS.has(word));
}

/** Stems already computed: agents' texts repeat a small vocabulary, and stemming was most of a concept search's cost. */
const STEM_CACHE_MAX = 50_000;
const stems = new Map<string, string>();

function stemOf(word: string): string {
  if (!/^[a-z]+$/.test(word)) return word;
  let stem = stems.get(word);
  if (stem === undefined) {
    if (stems.size >= STEM_CACHE_MAX) stems.clear();
    stem = stemmer(word);
    stems.set(word, stem);
  }
  return stem;
}

interface Lexicon {
  /** Stem → concepts it names as a term. */
  terms: Map<string, number[]>;
  /** Stem → concepts it names as a term or a cue. */
  cues: Map<string, number[]>;
}

function add(index: Map<string, number[]>, stem: string, concept: number) {
  const concepts = index.get(stem) ?? [];
  if (!concepts.includes(concept)) index.set(stem, [...concepts, concept]);
}

const LEXICON: Lexicon = (() => {
  const lexicon: Lexicon = { terms: new Map(), cues: new Map() };
  CONCEPTS.forEach((line, concept) => {
    const [terms = '', cues = ''] = line.split('|');
    const naming = (text: string) => words(text).filter((word) => !NAMES_NOTHING.test(word));
    for (const word of naming(terms)) {
      add(lexicon.terms, stemOf(word), concept);
      add(lexicon.cues, stemOf(word), concept);
    }
    for (const word of naming(cues)) add(lexicon.cues, stemOf(word), concept);
  });
  return lexicon;
})();

const SHAPE_CONCEPTS = SHAPES.map(({ shape, concept }) => {
  const index = CONCEPTS.findIndex((line) => line.startsWith(`${concept} `));
  if (index < 0) throw new Error(`no concept starts with ${concept}`);
  return { shape, concepts: [index] };
});

function normalize(vector: ConceptVector): ConceptVector {
  const norm = Math.hypot(...vector.values());
  if (norm > 0) for (const [concept, weight] of vector) vector.set(concept, weight / norm);
  return vector;
}

export interface QueryConcepts {
  vector: ConceptVector;
  /**
   * Share of the query that is words rather than payload field names (text/identifiers.ts), times the share of its
   * meaning the lexicon reads (words naming no concept count as meanings of their own; bare numbers do not count).
   */
  wordShare: number;
}

/** A query's concepts: each word adds weight to the concepts it names, split between them when it names several. */
export function queryConcepts(text: string): QueryConcepts {
  const vector: ConceptVector = new Map();
  const { plain, wordShare } = splitIdentifiers(text);
  // The user's circumstances ("for my plant shop") count less than the task (context.ts).
  const context = new Set(words(splitContext(plain).context));
  let unknown = 0;
  for (const word of new Set(words(plain))) {
    const weight = context.has(word) ? CONTEXT_WEIGHT : 1;
    const concepts = SHAPE_CONCEPTS.find(({ shape }) => shape.test(word))?.concepts ?? LEXICON.cues.get(stemOf(word)) ?? [];
    if (concepts.length === 0 && !/^\d+$/.test(word)) unknown += weight * weight;
    for (const concept of concepts) vector.set(concept, (vector.get(concept) ?? 0) + weight / concepts.length);
  }
  // Each word the lexicon does not know is a meaning of its own, orthogonal to every concept: a request whose one
  // known word of six names a concept shares little of its meaning with that concept's agents.
  const norm = Math.hypot(...vector.values());
  const known = norm > 0 ? norm / Math.hypot(norm, Math.sqrt(unknown)) : 0;
  return { vector: normalize(vector), wordShare: wordShare * known };
}

/** Weight of each field of an agent's text in its vector; the title and description say most about what it does. */
const FIELD_WEIGHTS = { name: 3, tags: 2, description: 3, use_cases: 1.5, functions: 1, readme: 0.5 } as const;

export type AgentText = Record<keyof typeof FIELD_WEIGHTS, string | null>;

/** An agent's concepts from its terms, field-weighted, damped (log) so repeating a word buys little. */
export function agentVector(text: AgentText): ConceptVector {
  const counts: ConceptVector = new Map();
  for (const [field, weight] of Object.entries(FIELD_WEIGHTS) as [keyof AgentText, number][]) {
    for (const word of words(text[field] ?? '')) {
      const concepts = LEXICON.terms.get(stemOf(word)) ?? [];
      for (const concept of concepts) counts.set(concept, (counts.get(concept) ?? 0) + weight / concepts.length);
    }
  }
  for (const [concept, count] of counts) counts.set(concept, Math.log1p(count));
  return normalize(counts);
}
