import { describe, expect, it } from 'vitest';
import { dedupeByFiscalYear, fiscalYearNamer, isAnnual } from '../../workers/specialist/src/analysis/annual-facts.ts';
import type { XbrlFact } from '../../workers/specialist/src/edgar/schemas.ts';

const fact = (overrides: Partial<XbrlFact>): XbrlFact => ({
  start: '2023-01-01',
  end: '2023-12-31',
  val: 1,
  accn: 'a',
  fy: 2023,
  fp: 'FY',
  form: '10-K',
  filed: '2024-02-01',
  ...overrides,
});

describe('annual facts', () => {
  it('are facts of about a year from annual reports', () => {
    expect(isAnnual(fact({}))).toBe(true);
    expect(isAnnual(fact({ form: '10-K/A' }))).toBe(true);
    expect(isAnnual(fact({ form: '20-F' }))).toBe(true);
    expect(isAnnual(fact({ start: '2023-01-30', end: '2024-01-28' }))).toBe(true); // 52 weeks
    expect(isAnnual(fact({ form: '10-Q', fp: 'Q3' }))).toBe(false);
    expect(isAnnual(fact({ start: '2023-10-01' }))).toBe(false); // a fourth quarter inside a 10-K
    expect(isAnnual(fact({ start: undefined }))).toBe(false); // an instant (balance sheet)
  });
});

describe('deduplication by fiscal year', () => {
  const byEndYear = (end: string) => Number(end.slice(0, 4));

  it('keeps the latest filed of the filings that report a year, so restatements win', () => {
    const kept = dedupeByFiscalYear(
      [
        fact({ val: 100, accn: 'first', filed: '2024-02-01' }),
        fact({ val: 90, accn: 'restated', filed: '2026-02-01', fy: 2025 }),
        fact({ val: 95, accn: 'middle', filed: '2025-02-01', fy: 2024 }),
      ],
      byEndYear,
    );
    expect([...kept.values()].map((f) => [f.fiscalYear, f.val, f.accn])).toEqual([[2023, 90, 'restated']]);
  });

  it('prefers an amendment filed the same day (the later accession number)', () => {
    const kept = dedupeByFiscalYear(
      [fact({ val: 2, accn: '0000000001-24-000002', form: '10-K/A' }), fact({ val: 1, accn: '0000000001-24-000001' })],
      byEndYear,
    );
    expect(kept.get(2023)!.val).toBe(2);
  });

  it('ignores quarterly facts, and keeps every year apart', () => {
    const kept = dedupeByFiscalYear(
      [
        fact({ val: 1 }),
        fact({ val: 2, start: '2022-01-01', end: '2022-12-31' }),
        fact({ val: 3, form: '10-Q', start: '2023-10-01', filed: '2030-01-01' }),
      ],
      byEndYear,
    );
    expect([...kept].map(([year, f]) => [year, f.val]).sort()).toEqual([
      [2022, 2],
      [2023, 1],
    ]);
  });
});

describe('fiscal year names', () => {
  it('come from the filing whose own year the period is, and shift older comparatives the same way', () => {
    // A 52/53-week year ending on the first days of January is named after the year before.
    const name = fiscalYearNamer([
      fact({ start: '2022-01-03', end: '2023-01-01', fy: 2022, accn: 'k2022' }),
      fact({ start: '2021-01-04', end: '2022-01-02', fy: 2022, accn: 'k2022' }),
      fact({ start: '2023-01-02', end: '2023-12-31', fy: 2023, accn: 'k2023' }),
      fact({ start: '2022-01-03', end: '2023-01-01', fy: 2023, accn: 'k2023' }),
    ]);
    expect(name('2023-12-31')).toBe(2023);
    expect(name('2023-01-01')).toBe(2022);
    expect(name('2022-01-02')).toBe(2022 - 1);
  });

  it('are the end year when no filing says otherwise', () => {
    expect(fiscalYearNamer([])('2024-09-28')).toBe(2024);
  });
});
