/** Plain-text helpers of the offline engine: sentences, words, and which words carry meaning. */

const STOPWORDS = new Set(
  'a an and are as at be but by can could did do does for from had has have he her his how i if in into is it its me my of on or our please she should so than that the their them then there these they this to us was we were what when where which who why will with would you your about tell give show find get need want'.split(
    ' ',
  ),
);

export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? [];
}

export function contentWords(text: string): string[] {
  return words(text).filter((word) => word.length > 2 && !STOPWORDS.has(word));
}

function sentences(text: string): string[] {
  return (text.replace(/\s+/g, ' ').match(/[^.!?]+(?:[.!?]+|$)/g) ?? []).map((s) => s.trim()).filter(Boolean);
}

/**
 * Extractive summary: each sentence scores the mean document frequency of its content words; the best
 * third (1 to 3 sentences) is kept in its original order. Deterministic, and only ever the source's words.
 */
export function summarise(text: string): { summary: string; kept: number; total: number } {
  const all = sentences(text);
  const frequency = new Map<string, number>();
  for (const word of contentWords(text)) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  const scored = all.map((sentence, index) => {
    const own = contentWords(sentence);
    const score = own.length ? own.reduce((sum, word) => sum + (frequency.get(word) ?? 0), 0) / own.length : 0;
    return { sentence, index, score };
  });
  const keep = Math.min(3, Math.max(1, Math.ceil(all.length / 3)));
  const chosen = [...scored]
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, keep)
    .sort((a, b) => a.index - b.index);
  return { summary: chosen.map((s) => s.sentence).join(' '), kept: chosen.length, total: all.length };
}

/** What `extract <kind>` finds, by kind. */
export const EXTRACTORS: Record<string, RegExp> = {
  emails: /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g,
  urls: /https?:\/\/[^\s)>\]"']+/g,
  numbers: /-?\d+(?:[.,]\d+)*%?/g,
  dates:
    /\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\/\d{1,2}\/\d{2,4}\b|\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.? \d{1,2}(?:, \d{4})?/g,
  tickers: /\$?\b[A-Z]{2,5}\b/g,
  addresses: /\bagent1[a-z0-9]{20,}\b/g,
};

/** Capitals that are words of the request, not tickers ("answer in JSON"). */
const NOT_TICKERS = new Set([
  'JSON',
  'API',
  'URL',
  'HTTP',
  'HTTPS',
  'HTML',
  'CSV',
  'PDF',
  'FAQ',
  'SQL',
  'XML',
  'YAML',
  'UTC',
  'ISO',
  'ID',
  'OK',
]);

export function extract(kind: string, text: string): string[] {
  const pattern = EXTRACTORS[kind];
  if (!pattern) return [];
  const found = [...new Set((text.match(pattern) ?? []).map((match) => match.replace(/^\$/, '')))];
  return kind === 'tickers' ? found.filter((ticker) => !NOT_TICKERS.has(ticker)) : found;
}

/** The kind of thing a list named `name` holds, when the engine extracts that kind (`tickers`, `links` → urls, …). */
export function listKind(name: string): string | null {
  const kind = name
    .toLowerCase()
    .replace(/^links$/, 'urls')
    .replace(/^symbols$/, 'tickers');
  return Object.hasOwn(EXTRACTORS, kind) ? kind : null;
}
