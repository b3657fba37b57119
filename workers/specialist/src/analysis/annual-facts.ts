import type { XbrlFact } from '../edgar/schemas.ts';

/** A fact for one whole fiscal year, with the year it is named by. */
export interface AnnualFact extends XbrlFact {
  start: string;
  fiscalYear: number;
}

const DAY_MS = 86_400_000;
const ANNUAL_FORMS = /^(10-K|20-F|40-F)(\/A)?$/;

/** A duration of about a year (52 or 53 weeks, or a calendar year) from an annual report. */
export function isAnnual(fact: XbrlFact): fact is XbrlFact & { start: string } {
  if (!fact.start || !ANNUAL_FORMS.test(fact.form)) return false;
  const days = (Date.parse(fact.end) - Date.parse(fact.start)) / DAY_MS;
  return days >= 350 && days <= 380;
}

/**
 * How the company names its fiscal years. A fact's `fy` is the fiscal year of the filing it came from,
 * not of the fact; but the latest period in a 10-K is that 10-K's own year, so those periods are named by
 * their filing. Older comparatives are named by their end year, shifted as the company's nearest own year
 * is (NVIDIA's fiscal 2024 ends in January 2024: no shift; a 52-week year ending on 1 January 2023 is
 * fiscal 2022, and so is named the year before it).
 */
export function fiscalYearNamer(facts: XbrlFact[]): (end: string) => number {
  const ownPeriod = new Map<string, { end: string; fy: number }>();
  for (const fact of facts) {
    if (!isAnnual(fact) || typeof fact.fy !== 'number') continue;
    const known = ownPeriod.get(fact.accn);
    if (!known || fact.end > known.end) ownPeriod.set(fact.accn, { end: fact.end, fy: fact.fy });
  }
  const named = [...ownPeriod.values()].map((period) => ({
    at: Date.parse(period.end),
    end: period.end,
    shift: period.fy - Number(period.end.slice(0, 4)),
  }));
  return (end) => {
    const at = Date.parse(end);
    const nearest = named.reduce<(typeof named)[number] | null>(
      (best, period) => (!best || Math.abs(period.at - at) < Math.abs(best.at - at) ? period : best),
      null,
    );
    return Number(end.slice(0, 4)) + (nearest?.shift ?? 0);
  };
}

const newer = (a: XbrlFact, b: XbrlFact) => a.filed > b.filed || (a.filed === b.filed && a.accn > b.accn);

/**
 * One fact per fiscal year. Every 10-K repeats the two previous years, so a year's figure appears in up
 * to three filings, and later filings may restate it (share splits change EPS): the latest filed wins.
 */
export function dedupeByFiscalYear(facts: XbrlFact[], nameYear: (end: string) => number): Map<number, AnnualFact> {
  const byYear = new Map<number, AnnualFact>();
  for (const fact of facts) {
    if (!isAnnual(fact)) continue;
    const fiscalYear = nameYear(fact.end);
    const kept = byYear.get(fiscalYear);
    if (!kept || newer(fact, kept)) byYear.set(fiscalYear, { ...fact, fiscalYear });
  }
  return byYear;
}
