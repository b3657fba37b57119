import { stemmer } from 'stemmer';
import type { SqlParams } from '../sql-params.ts';
import type { SqlRunner, SqlStatement } from '../sql-runner.ts';
import { matchExpression, phraseExpression, type TermGroup } from './fts-query.ts';
import { isDictionaryWord } from './dictionary.ts';
import { splitContext } from './context.ts';
import { taskText } from './filler.ts';
import { identifierParts, snakeCaseIdentifiers } from './identifiers.ts';
import { STOPWORDS } from './stopwords.ts';
import { synonymsOf } from './synonyms.ts';
import { normalizeText, SEARCH_TERMS_MAX, tokenize, type TokenizedText } from './tokenize.ts';
import { firstHalfVariants, isCorrectable, isOneEdit, stablePrefix, TYPO_CANDIDATES_MAX } from './typos.ts';

/** Words corrected per query: bounds the vocabulary lookups of a long pasted text. */
const CORRECTED_WORDS_MAX = 3;
/** Exact vocabulary lookups per query (each an FTS index probe): bounds the cost of pasted gibberish. */
const VARIANTS_MAX = 1200;
/** Vocabulary words sharing a word's first half read per corrected word. */
const HALF_SCAN = 500;
/** A known but rare word also gets a correction this many times more frequent ("recieve" → "receive"). */
const RARE_WORD_RATIO = 20;
/** Shortest word still matched as a prefix while typed; one letter would match most of the index. */
const PREFIX_MIN_CHARS = 2;
/** Vocabulary words read per typed prefix, and the most frequent of them searched as completions. */
const PREFIX_SCAN = 200;
const PREFIX_COMPLETIONS = 8;
/**
 * In a request of at least this many words, a finished dictionary word at the end is a word, not a prefix still
 * being typed: widening it ("cities" → every word starting so) put unrelated agents first. Shorter queries are
 * typed as you go, where a dictionary word may still be the start of a longer one ("thermo", "air qual").
 */
const SENTENCE_WORDS = 3;
/** Shorter dictionary words are often prefixes of the intended word even at the end of a sentence. */
const FINISHED_WORD_CHARS = 4;
/**
 * A word in at least this many agents is taken as meant: the last word is then not widened to a prefix,
 * and no word gets synonyms. Widening frequent words adds thousands of matches (cost) and noise; rare or
 * unknown words are where prefixes and synonyms find what the user means.
 */
const COMMON_WORD_DOCS = 3;
/**
 * A word in at least this many agents finds none on its own once the query has a rarer word: it only ranks
 * what the rarer words find (Lucene's common-terms query, Elasticsearch's cutoff_frequency). In a large
 * registry such a word no longer tells agents apart ("find an agent that tracks my parcel": "find" and "tracks"
 * are in a fifth of 100,000 generated agents), and scoring its tens of thousands of matches made those the
 * slowest searches. Small registries never reach it, so their matches stay "any of the words".
 */
export const MATCH_ALONE_MAX_DOCS = 10_000;
const matchesAlone = (docs: number) => docs < MATCH_ALONE_MAX_DOCS;

export interface ExpandOptions {
  /** exact_match: the words as a phrase, no prefixes, corrections or synonyms. */
  exact: boolean;
  /** Add synonym groups (the lexical path of semantic search, and default relevancy). */
  synonyms: boolean;
}

/** A query ready for FTS5: the words searched, what may stand for each, and the MATCH expression. */
export interface ExpandedQuery {
  words: string[];
  groups: TermGroup[];
  match: string;
}

interface VocabRow {
  term: string;
  doc: number;
}

const VOCAB_LOOKUP = 'SELECT term, doc FROM search_words_vocab WHERE term IN (SELECT value FROM json_each(?1))';
const PREFIX_RANGE = 'SELECT term, doc FROM search_words_vocab WHERE term >= ?1 AND term <= ?2';

/**
 * A query before its vocabulary lookups: the words, the lookups to run (`lookups`, one batch), and `plain`,
 * the query when every word is taken as meant, which is what expansion yields when every word is common
 * (see COMMON_WORD_DOCS). A caller may run a search for `plain` in the lookups' batch, guarded by
 * commonWordsGuard, and keep it when expansion agrees: one round trip for queries of common words.
 */
export interface QueryPlan {
  words: string[];
  /** exact_match: the phrase query, no lookups needed. */
  exact?: ExpandedQuery;
  lookups: SqlStatement[];
  plain: ExpandedQuery;
  /** Field names typed as one word ("from_station", "partySize"): the word (parts joined) → its parts as a phrase. */
  phrases: ReadonlyMap<string, string[]>;
  /** Words of the user's circumstances only (context.ts), which count half. */
  context: ReadonlySet<string>;
}

/** Null when the text holds no searchable word (only punctuation, emoji, operators): the caller browses. */
export function planQuery(text: string, options: ExpandOptions): QueryPlan | null {
  const {
    words: typed,
    endsInWord,
    phrases,
    context,
  }: TaskWords = options.exact ? { ...tokenize(text), phrases: new Map(), context: new Set() } : tokenizeTask(text);
  const meaningful = typed.filter((word) => !STOPWORDS.has(word));
  const words = meaningful.length > 0 ? meaningful : typed;
  if (words.length === 0) return null;
  const lastWord = words[words.length - 1]!;
  const finished = words.length >= SENTENCE_WORDS && [...lastWord].length >= FINISHED_WORD_CHARS && isDictionaryWord(lastWord);
  const typingLast = endsInWord && lastWord === typed[typed.length - 1] && !finished;
  const plainGroups = words.map((word) => ({
    word,
    alternatives: phraseOf(phrases, word),
    prefix: false,
    matchesAlone: true,
    context: context.has(word),
  }));
  const plain = { words, groups: plainGroups, match: matchExpression(plainGroups) };

  if (options.exact)
    return { words, exact: { words, groups: plainGroups, match: phraseExpression(words) }, lookups: [], plain, phrases, context };

  const last = words[words.length - 1]!;
  const prefixCandidate = typingLast && [...last].length >= PREFIX_MIN_CHARS;
  // The word being typed is read once, as the first row of its prefix range: each vocabulary lookup counts the
  // word's doclist (fts5vocab), 10–25 ms for "data" at a million agents.
  const looked = prefixCandidate ? words.filter((word) => word !== last) : words;
  const lookups: SqlStatement[] = [{ sql: VOCAB_LOOKUP, params: [JSON.stringify(looked)] }];
  if (prefixCandidate) lookups.push({ sql: `${PREFIX_RANGE} LIMIT ${PREFIX_SCAN}`, params: [last, `${last}\u{10FFFF}`] });
  return { words, lookups, plain, phrases, context };
}

const phraseOf = (phrases: ReadonlyMap<string, string[]>, word: string): string[] => phrases.get(word) ?? [];

/**
 * The request's words with its filler phrases left out (filler.ts); all of them when it is nothing but filler.
 * A field name of several parts is one word, its parts joined ("from_station" → "fromstation", as an agent writing
 * "fromStation" is indexed), with its parts as a phrase (`phrases`); a field name is typed whole, never a prefix.
 */
interface TaskWords extends TokenizedText {
  phrases: Map<string, string[]>;
  context: Set<string>;
}

function tokenizeTask(text: string): TaskWords {
  const snake = snakeCaseIdentifiers(text);
  const task = taskText(snake);
  const source = tokenize(task).words.length > 0 ? task : normalizeText(snake);
  const words: string[] = [];
  const phrases = new Map<string, string[]>();
  const tokens = source.split(/\s+/).filter(Boolean);
  for (const token of tokens) {
    const parts = identifierParts(token);
    if (parts) phrases.set(parts.join(''), [parts.join(' '), ...parts.filter((part) => !STOPWORDS.has(part))]);
    for (const word of parts ? [parts.join('')] : tokenize(token).words)
      if (!words.includes(word) && words.length < SEARCH_TERMS_MAX) words.push(word);
  }
  const endsInWord = tokenize(source).endsInWord && !identifierParts(tokens[tokens.length - 1] ?? '');
  return { words, endsInWord, phrases, context: new Set(tokenize(splitContext(source).context).words) };
}

/**
 * SQL that is true when expansion will yield `plan.plain`: every word is common (nothing to correct, widen
 * or add synonyms to), and the words are all or none too frequent to match alone (no common-terms split).
 */
export function plainQueryGuard(plan: QueryPlan, params: SqlParams): string {
  // One read of the vocabulary: each lookup counts the word's doclist (fts5vocab), 14 ms for "data" at a million agents.
  return `(SELECT ${plainQueryCondition(plan)} FROM search_words_vocab WHERE term IN ${params.list(plan.words)})`;
}

/** plainQueryGuard's condition, an aggregate over the typed words' vocabulary rows (`doc`) a caller reads. */
export function plainQueryCondition(plan: QueryPlan): string {
  const n = plan.words.length;
  return `(coalesce(sum(doc >= ${COMMON_WORD_DOCS}), 0) = ${n} AND coalesce(sum(doc >= ${MATCH_ALONE_MAX_DOCS}), 0) IN (0, ${n}))`;
}

/** The typed words' vocabulary rows (term, doc), from the results of `plan.lookups`. */
export function typedWordRows(plan: QueryPlan, lookupRows: readonly unknown[][]): VocabRow[] {
  const [words = [], prefixRows = []] = lookupRows as [VocabRow[]?, VocabRow[]?];
  // The prefix range starts at the typed word: its first row is the word itself when the vocabulary holds it.
  const typing = prefixRows[0]?.term === plan.words[plan.words.length - 1] ? [prefixRows[0]!] : [];
  return [...words, ...typing];
}

/** plainQueryGuard's answer, from the results of `plan.lookups` (read in the same transaction). */
export function plainQueryApplies(plan: QueryPlan, lookupRows: readonly unknown[][]): boolean {
  const known = typedWordRows(plan, lookupRows);
  const n = plan.words.length;
  const tooFrequent = known.filter((row) => !matchesAlone(row.doc)).length;
  return known.filter((row) => row.doc >= COMMON_WORD_DOCS).length === n && (tooFrequent === 0 || tooFrequent === n);
}

/** Expansion from the results of `plan.lookups` (in order); typo corrections may take one more batch. */
export async function expandPlanned(
  runner: SqlRunner,
  plan: QueryPlan,
  lookupRows: readonly unknown[][],
  options: ExpandOptions,
): Promise<ExpandedQuery> {
  if (plan.exact) return plan.exact;
  const { words } = plan;
  const known = typedWordRows(plan, lookupRows);
  const prefixRows = (lookupRows[1] ?? []) as VocabRow[];
  const last = words[words.length - 1]!;
  const frequency = new Map(known.map((row) => [row.term, row.doc]));
  const common = (word: string) => (frequency.get(word) ?? 0) >= COMMON_WORD_DOCS;
  const lastIsPrefix = prefixRows.length > 0 && !common(last);
  // Completions are searched as whole words: the index stems them as it stemmed the documents, where the
  // stem of a typed prefix may not be a prefix of the stem ("destinat" vs "destin" from "destination").
  // One completion per stem: forms of one word ("summary", "summaries") are one term of the index, and each
  // repeat would be one more phrase for bm25 to score and count again.
  const stems = new Set<string>();
  const completions = [...prefixRows]
    .sort((a, b) => b.doc - a.doc || (a.term < b.term ? -1 : 1))
    .filter((row) => {
      const stem = indexStem(row.term);
      return !stems.has(stem) && stems.add(stem);
    })
    .slice(0, PREFIX_COMPLETIONS)
    .map((row) => row.term);

  const corrections = await correct(
    runner,
    words.filter((word) => !plan.phrases.has(word)),
    frequency,
    lastIsPrefix ? last : undefined,
  );
  const groups = words.map((word) => {
    if (plan.phrases.has(word))
      return {
        word,
        alternatives: phraseOf(plan.phrases, word),
        prefix: false,
        matchesAlone: matchesAlone(frequency.get(word) ?? 0),
        context: plan.context.has(word),
      };
    const alternatives = new Set([...(corrections.get(word) ?? []), ...(lastIsPrefix && word === last ? completions : [])]);
    if (options.synonyms && !common(word)) for (const synonym of synonymsOf(word)) alternatives.add(synonym);
    alternatives.delete(word);
    return {
      word,
      alternatives: [...alternatives],
      prefix: lastIsPrefix && word === last,
      matchesAlone: matchesAlone(frequency.get(word) ?? 0),
      context: plan.context.has(word),
    };
  });
  return { words, groups, match: matchExpression(groups) };
}

/**
 * The term the index holds for a word: FTS5's porter tokenizer stems ASCII words (the `stemmer` package
 * agrees with it on them) and leaves other words as they are.
 */
function indexStem(word: string): string {
  return /^[a-z]+$/.test(word) ? stemmer(word) : word;
}

/** planQuery, its lookups, and expandPlanned, for callers with nothing to run alongside the lookups. */
export async function expandQuery(runner: SqlRunner, text: string, options: ExpandOptions): Promise<ExpandedQuery | null> {
  const plan = planQuery(text, options);
  if (!plan) return null;
  if (plan.exact) return plan.exact;
  return expandPlanned(runner, plan, await runner.batch(plan.lookups), options);
}

/**
 * Corrections for unknown (or much rarer than a neighbour) words, most frequent first. A dictionary word is
 * never corrected: absent from the registry, it is still what the user meant, and its one-edit neighbours are
 * other words ("trains" → "traits").
 */
async function correct(runner: SqlRunner, words: string[], frequency: Map<string, number>, typing: string | undefined) {
  const corrections = new Map<string, string[]>();
  const targets = words
    .filter((word) => word !== typing && isCorrectable(word) && (frequency.get(word) ?? 0) <= 2 && !isDictionaryWord(word))
    .slice(0, CORRECTED_WORDS_MAX);
  if (targets.length === 0) return corrections;
  const variantsOf = new Map<string, Set<string>>();
  const all = new Set<string>();
  for (const word of targets) {
    const variants = firstHalfVariants(word);
    if (all.size + variants.size > VARIANTS_MAX) break;
    variantsOf.set(word, variants);
    for (const variant of variants) all.add(variant);
  }
  if (variantsOf.size === 0) return corrections;
  const [exact, ...ranges] = (await runner.batch([
    { sql: VOCAB_LOOKUP, params: [JSON.stringify([...all])] },
    ...[...variantsOf.keys()].map((word) => ({
      sql: `${PREFIX_RANGE} LIMIT ${HALF_SCAN}`,
      params: [stablePrefix(word), `${stablePrefix(word)}\u{10FFFF}`],
    })),
  ])) as VocabRow[][];
  const found = new Map(exact!.map((row) => [row.term, row.doc]));
  [...variantsOf.keys()].forEach((word, i) => {
    for (const row of ranges[i]!) {
      if (!isOneEdit(word, row.term)) continue;
      found.set(row.term, row.doc);
      variantsOf.get(word)!.add(row.term);
    }
  });
  for (const [word, variants] of variantsOf) {
    const own = frequency.get(word) ?? 0;
    const candidates = [...variants]
      .filter((variant) => (found.get(variant) ?? 0) > 0 && (own === 0 || found.get(variant)! >= own * RARE_WORD_RATIO))
      .sort((a, b) => found.get(b)! - found.get(a)! || (a < b ? -1 : 1))
      .slice(0, TYPO_CANDIDATES_MAX);
    if (candidates.length) corrections.set(word, candidates);
  }
  return corrections;
}
