import type { CompanyTickers } from '../edgar/schemas.ts';

export interface CompanyRef {
  cik: number;
  ticker: string;
  title: string;
}

const SUFFIXES = new Set([
  'inc',
  'incorporated',
  'corp',
  'corporation',
  'co',
  'company',
  'ltd',
  'limited',
  'plc',
  'llc',
  'lp',
  'sa',
  'nv',
  'ag',
  'se',
  'holdings',
  'holding',
  'group',
  'com',
  'de',
]);

/** Names people use that are not the registrant's: they map to the registrant's normalized title. */
const ALIASES: Record<string, string> = {
  google: 'alphabet',
  facebook: 'meta platforms',
  meta: 'meta platforms',
  'amazon com': 'amazon',
  'amazon.com': 'amazon',
};

/** "AMAZON COM INC" → "amazon", "Meta Platforms, Inc." → "meta platforms", "The Walt Disney Co" → "walt disney". */
export function normalizeName(title: string): string {
  const words = title
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/\/[a-z]{2}\//g, ' ')
    .replace(/[^a-z0-9\s-]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  if (words[0] === 'the' && words.length > 1) words.shift();
  while (words.length > 1 && SUFFIXES.has(words.at(-1)!)) words.pop();
  return words.join(' ');
}

/** The SEC's ticker map, searchable by ticker and by company name. */
export class CompanyDirectory {
  private readonly byTicker = new Map<string, CompanyRef>();
  private readonly byName = new Map<string, CompanyRef>();
  private readonly byCik = new Map<number, CompanyRef>();

  constructor(tickers: CompanyTickers) {
    // The map lists a company's main ticker first (GOOGL before GOOG): the first one names the company.
    for (const row of Object.values(tickers)) {
      const ref = { cik: row.cik_str, ticker: row.ticker.toUpperCase(), title: row.title };
      this.byTicker.set(ref.ticker, ref);
      if (!this.byCik.has(ref.cik)) this.byCik.set(ref.cik, ref);
      const name = normalizeName(row.title);
      if (name && !this.byName.has(name)) this.byName.set(name, this.byCik.get(ref.cik)!);
    }
  }

  ticker(symbol: string): CompanyRef | undefined {
    const ref = this.byTicker.get(symbol.toUpperCase().replace(/^\$/, ''));
    return ref && this.byCik.get(ref.cik);
  }

  /** A company by its name as written in a question ("Apple", "amazon.com", "Google"). */
  name(text: string): CompanyRef | undefined {
    const name = normalizeName(text);
    return this.byName.get(ALIASES[name] ?? name);
  }
}
