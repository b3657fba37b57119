import type { CompanyDirectory, CompanyRef } from './company-directory.ts';
import type { Metric } from './metrics.ts';

/** Which fiscal years a question is about. */
export type PeriodRequest = { kind: 'latest'; count: number } | { kind: 'years'; years: number[] } | { kind: 'since'; from: number };

/** What the supervisor makes of a question, by fixed rules (a model may only fill gaps: see chat/planner.ts). */
export interface QuestionPlan {
  companies: CompanyRef[];
  metrics: Metric[];
  /** True when the question named no figure and the default set was taken. */
  metricsDefaulted: boolean;
  period: PeriodRequest;
  periodDefaulted: boolean;
}

const DEFAULT_METRICS: Metric[] = ['revenue', 'net_income', 'net_margin'];
const DEFAULT_YEARS = 3;
const MAX_COMPANIES = 3;
const MAX_YEARS = 10;

/** Phrases → metrics, most specific first; a matched phrase is removed so that "net margin" is not also "net income". */
const METRIC_PHRASES: [RegExp, Metric[]][] = [
  [/\b(?:diluted\s+)?(?:eps|earnings per (?:diluted\s+)?share)\b/g, ['eps_diluted']],
  [/\b(?:free cash[- ]flows?|fcf)\b/g, ['free_cash_flow']],
  [/\b(?:operating cash[- ]flows?|cash[- ]flows? from operations|cash from operations|cash[- ]flows?)\b/g, ['operating_cash_flow']],
  [/\b(?:capex|capital expenditures?|capital spending|capital investments?)\b/g, ['capex']],
  [/\bgross margins?\b/g, ['gross_margin']],
  [/\bgross profits?\b/g, ['gross_profit']],
  [/\b(?:operating|ebit) margins?\b/g, ['operating_margin']],
  [/\b(?:operating (?:income|profits?|earnings)|ebit)\b/g, ['operating_income']],
  [/\b(?:net (?:profit |income )?margins?|profit margins?)\b/g, ['net_margin']],
  [/\bmargins?\b/g, ['gross_margin', 'operating_margin', 'net_margin']],
  [/\bprofitab(?:le|ility)\b/g, ['operating_margin', 'net_margin']],
  [/\b(?:net (?:income|profits?|earnings|loss(?:es)?)|bottom[- ]line|profits?|earnings|earned|losses)\b/g, ['net_income']],
  [/\b(?:revenues?|sales|top[- ]line|turnover|sold)\b/g, ['revenue']],
];

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  a: 1,
  couple: 2,
  few: 3,
  several: 3,
};

/** Upper-case words that are not tickers in a financial question. */
const NOT_TICKERS = new Set([
  'A',
  'I',
  'AN',
  'AND',
  'AS',
  'AT',
  'BE',
  'BY',
  'DO',
  'FOR',
  'GO',
  'IF',
  'IN',
  'IS',
  'IT',
  'ME',
  'MY',
  'NO',
  'OF',
  'ON',
  'OR',
  'SO',
  'TO',
  'UP',
  'US',
  'WE',
  'ALL',
  'ARE',
  'CAN',
  'HAS',
  'HOW',
  'NEW',
  'NOW',
  'ONE',
  'OUT',
  'THE',
  'TWO',
  'WAS',
  'WHO',
  'WHY',
  'EPS',
  'FCF',
  'EBIT',
  'FY',
  'YOY',
  'QOQ',
  'TTM',
  'CEO',
  'CFO',
  'SEC',
  'USD',
  'GAAP',
  'AI',
  'IPO',
  'ROE',
  'ROI',
  'CY',
  'Q1',
  'Q2',
  'Q3',
  'Q4',
  'K',
  'PE',
]);

/** Words of the question's own vocabulary, never read as a company name on their own. */
const QUESTION_WORDS =
  /^(?:revenues?|sales|income|net|margins?|profits?|earnings|growth|cash|flows?|free|operating|gross|capital|share|shares|fiscal|years?|last|past|change|changed|compare|company|stock|market|latest|recent|report|annual|quarter|total)$/;

function companiesIn(question: string, directory: CompanyDirectory): CompanyRef[] {
  const found = new Map<number, { ref: CompanyRef; at: number }>();
  const add = (ref: CompanyRef | undefined, at: number) => {
    if (ref && !found.has(ref.cik)) found.set(ref.cik, { ref, at });
  };
  for (const match of question.matchAll(/\$([A-Za-z][A-Za-z.-]{0,6})\b/g)) add(directory.ticker(match[1]!), match.index);
  for (const match of question.matchAll(/\b[A-Z][A-Z.-]{0,5}\b/g)) {
    if (!NOT_TICKERS.has(match[0])) add(directory.ticker(match[0]), match.index);
  }
  // Names of up to four words, longest first, in the question's words without possessives.
  const words = [...question.matchAll(/[A-Za-z0-9][A-Za-z0-9.&-]*(?:'s|’s)?/g)].map((m) => ({
    text: m[0].replace(/(?:'s|’s)$/, '').replace(/\.$/, ''),
    at: m.index,
  }));
  for (let size = 4; size >= 1; size--) {
    for (let i = 0; i + size <= words.length; i++) {
      const span = words.slice(i, i + size);
      if (span.every((w) => QUESTION_WORDS.test(w.text.toLowerCase()))) continue;
      // One lower-case word is a company only when it is not an ordinary word of the question.
      if (size === 1 && span[0]!.text.length < 3) continue;
      add(directory.name(span.map((w) => w.text).join(' ')), span[0]!.at);
    }
  }
  return [...found.values()]
    .sort((a, b) => a.at - b.at)
    .slice(0, MAX_COMPANIES)
    .map((entry) => entry.ref);
}

/** The figures named, in the order the question names them. */
function metricsIn(question: string): Metric[] {
  let text = question.toLowerCase();
  const found: { at: number; names: Metric[] }[] = [];
  for (const [pattern, names] of METRIC_PHRASES) {
    const at = text.search(pattern);
    if (at < 0) continue;
    found.push({ at, names });
    // Blanked to the same length, so that later positions stay comparable.
    text = text.replace(pattern, (match) => ' '.repeat(match.length));
  }
  const metrics: Metric[] = [];
  for (const { names } of found.sort((a, b) => a.at - b.at)) for (const name of names) if (!metrics.includes(name)) metrics.push(name);
  return metrics;
}

const count = (word: string) => Math.min(MAX_YEARS, Math.max(1, /^\d+$/.test(word) ? Number(word) : (NUMBER_WORDS[word] ?? DEFAULT_YEARS)));

function fullYear(text: string): number {
  const digits = text.replace(/\D/g, '');
  return digits.length === 2 ? 2000 + Number(digits) : Number(digits);
}

function periodIn(question: string): PeriodRequest | null {
  const text = question.toLowerCase();
  const range =
    /\b(?:from|between)?\s*(?:fy\s?|fiscal\s+(?:year\s+)?)?((?:19|20)\d{2})\s*(?:-|–|to|through|until|and)\s*(?:fy\s?|fiscal\s+(?:year\s+)?)?((?:19|20)\d{2})\b/.exec(
      text,
    );
  if (range) {
    const [from, to] = [Number(range[1]), Number(range[2])].sort((a, b) => a - b) as [number, number];
    const years = Array.from({ length: Math.min(MAX_YEARS, to - from + 1) }, (_, i) => from + i);
    return { kind: 'years', years };
  }
  const since = /\bsince\s+(?:fy\s?|fiscal\s+(?:year\s+)?)?((?:19|20)\d{2})\b/.exec(text);
  if (since) return { kind: 'since', from: Number(since[1]) };
  const recent =
    /\b(?:last|past|previous|prior|recent|latest|most recent)\s+(\d+|one|two|three|four|five|six|seven|eight|nine|ten|few|several|couple(?: of)?)\s+(?:full\s+)?(?:fiscal\s+|financial\s+)?years?\b/.exec(
      text,
    );
  if (recent) return { kind: 'latest', count: count(recent[1]!.replace(/ of$/, '')) };
  const years = [...text.matchAll(/\b(?:fy\s?'?|fiscal\s+(?:year\s+)?)(\d{2}|\d{4})\b|\b((?:19|20)\d{2})\b/g)].map((m) =>
    fullYear(m[1] ?? m[2]!),
  );
  if (years.length) return { kind: 'years', years: [...new Set(years)].sort((a, b) => a - b).slice(-MAX_YEARS) };
  if (/\b(?:last|latest|most recent|this|current|previous|past)\s+(?:fiscal\s+|financial\s+)?(?:year|annual report|10-k)\b/.test(text))
    return { kind: 'latest', count: 1 };
  return null;
}

/** Reads a question for companies (tickers, names), figures and fiscal years; defaults fill what it does not say. */
export function parseQuestion(question: string, directory: CompanyDirectory): QuestionPlan {
  const metrics = metricsIn(question);
  const period = periodIn(question);
  return {
    companies: companiesIn(question, directory),
    metrics: metrics.length ? metrics : DEFAULT_METRICS,
    metricsDefaulted: metrics.length === 0,
    period: period ?? { kind: 'latest', count: DEFAULT_YEARS },
    periodDefaulted: period === null,
  };
}

export function describePeriod(period: PeriodRequest): string {
  if (period.kind === 'latest') return period.count === 1 ? 'the latest fiscal year' : `the last ${period.count} fiscal years`;
  if (period.kind === 'since') return `fiscal years since ${period.from}`;
  return period.years.length === 1 ? `fiscal ${period.years[0]}` : `fiscal years ${period.years.join(', ')}`;
}
