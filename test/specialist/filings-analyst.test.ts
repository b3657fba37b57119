import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CompanyDirectory } from '../../workers/specialist/src/analysis/company-directory.ts';
import { annualFigures } from '../../workers/specialist/src/analysis/figures.ts';
import { METRICS, type Metric } from '../../workers/specialist/src/analysis/metrics.ts';
import type { PeriodRequest } from '../../workers/specialist/src/analysis/question.ts';
import { teamFromEnv } from '../../workers/specialist/src/config.ts';
import type { CompanyFacts } from '../../workers/specialist/src/edgar/schemas.ts';
import { analyzeFilings, type FilingsReport } from '../../workers/specialist/src/team/filings-analyst.ts';
import { edgarJson } from './helpers/edgar-dataset.ts';
import { installFakeNetwork } from './helpers/fake-network.ts';

beforeEach(() => {
  installFakeNetwork();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Millions of USD, as the filings state them (integers, so the comparisons are exact). */
const M = 1e6;
const ALL: Metric[] = [...METRICS];

/** The real analyst, reading the shipped dataset through the Worker's EDGAR client (edgar.test serves data/edgar). */
async function analyze(ticker: string, period: PeriodRequest, metrics: Metric[] = ALL): Promise<FilingsReport> {
  const { edgar } = teamFromEnv(env);
  const company = new CompanyDirectory(await edgar.tickers()).ticker(ticker)!;
  const outcome = await analyzeFilings(edgar, company, metrics, period);
  if (!outcome.ok) throw new Error(outcome.reason);
  return outcome.report;
}

const byYear = (report: FilingsReport) => Object.fromEntries(report.years.map((year) => [year.fiscalYear, year.values]));

describe('the filings analyst computes figures from EDGAR company facts', () => {
  it('Apple FY2021-FY2024: every figure as reported in the 10-Ks, margins and free cash flow computed', async () => {
    const report = await analyze('AAPL', { kind: 'years', years: [2021, 2022, 2023, 2024] });
    const years = byYear(report);
    expect(Object.keys(years)).toEqual(['2021', '2022', '2023', '2024']);
    expect(years[2024]).toEqual({
      revenue: 391035 * M,
      net_income: 93736 * M,
      gross_profit: 180683 * M,
      operating_income: 123216 * M,
      eps_diluted: 6.08,
      operating_cash_flow: 118254 * M,
      capex: 9447 * M,
      net_margin: (93736 * M) / (391035 * M),
      gross_margin: (180683 * M) / (391035 * M),
      operating_margin: (123216 * M) / (391035 * M),
      free_cash_flow: (118254 - 9447) * M,
    });
    expect([2021, 2022, 2023].map((y) => years[y]!.revenue)).toEqual([365817 * M, 394328 * M, 383285 * M]);
    expect([2021, 2022, 2023].map((y) => years[y]!.net_income)).toEqual([94680 * M, 99803 * M, 96995 * M]);
    expect(report.years.at(-1)).toMatchObject({ start: '2023-10-01', end: '2024-09-28' });
    expect(report.previous.get(2021)?.values.revenue).toBe(274515 * M);
    expect(report.fiscalYearEnd).toBe('0928');
  });

  it('takes the latest fiscal years from annual reports only: the 10-Q after Apple’s FY2024 is not a year', async () => {
    const report = await analyze('AAPL', { kind: 'latest', count: 3 });
    expect(report.years.map((year) => year.fiscalYear)).toEqual([2022, 2023, 2024]);
  });

  it('names NVIDIA’s years as NVIDIA does (fiscal 2025 ends in January 2025) and takes restated EPS from the latest filing', async () => {
    const report = await analyze('NVDA', { kind: 'latest', count: 4 }, ['eps_diluted', 'revenue']);
    expect(report.years.map((year) => [year.fiscalYear, year.end])).toEqual([
      [2022, '2022-01-30'],
      [2023, '2023-01-29'],
      [2024, '2024-01-28'],
      [2025, '2025-01-26'],
    ]);
    // FY2024 was 11.93 in the FY2024 10-K and 1.19 after the 10-for-1 split, in the FY2025 10-K.
    expect(report.years.map((year) => year.values.eps_diluted)).toEqual([3.85, 0.17, 1.19, 2.94]);
    expect(report.years[2]!.sources.eps_diluted).toMatchObject({ accn: '0001045810-25-000023', filed: '2025-02-26' });
    expect(report.years.map((year) => year.values.revenue)).toEqual([26914 * M, 26974 * M, 60922 * M, 130497 * M]);
    // The like-for-like comparative: the previous year as the filing each figure comes from reports it. FY2022 and
    // FY2023 come from 10-Ks (FY2024's, FY2025's) that stop at those years, so they have none.
    expect(report.years.map((year) => year.sameFilingPrior.eps_diluted)).toEqual([undefined, undefined, 0.17, 1.19]);
  });

  it('computes Alphabet’s gross profit from Revenues minus CostOfRevenue (it reports no GrossProfit)', async () => {
    const report = await analyze('GOOGL', { kind: 'years', years: [2024] }, ['gross_profit', 'gross_margin', 'eps_diluted']);
    const [year] = report.years;
    expect(year!.values.gross_profit).toBe((350018 - 146306) * M);
    expect(year!.values.gross_margin).toBeCloseTo(203.712 / 350.018, 12);
    expect(year!.sources.gross_profit!.concept).toBe('Revenues - CostOfRevenue');
    expect(year!.values.eps_diluted).toBe(8.04);
  });

  it('reads Amazon’s capital expenditure from PaymentsToAcquireProductiveAssets, and its 2022 net loss', async () => {
    const report = await analyze('AMZN', { kind: 'years', years: [2022, 2024] });
    const years = byYear(report);
    expect(years[2024]!.capex).toBe(83004 * M);
    expect(years[2024]!.free_cash_flow).toBe((115877 - 83004) * M);
    expect(report.years[1]!.sources.capex!.concept).toBe('PaymentsToAcquireProductiveAssets');
    expect(years[2022]!.net_income).toBe(-2722 * M);
    expect(years[2022]!.net_margin).toBeCloseTo(-2.722 / 513.983, 12);
    expect(years[2022]!.eps_diluted).toBe(-0.27);
  });

  it('says which of the years asked for the filings do not cover', async () => {
    const report = await analyze('MSFT', { kind: 'years', years: [2019, 2020, 2021] }, ['revenue']);
    expect(report.years.map((year) => year.fiscalYear)).toEqual([2020, 2021]);
    expect(report.missingYears).toEqual([2019]);
    expect(report.available).toEqual([2020, 2021, 2022, 2023, 2024]);
  });

  it('answers no figures, with the reason, for a company without XBRL facts', async () => {
    const { edgar } = teamFromEnv(env);
    const tesla = new CompanyDirectory(await edgar.tickers()).ticker('TSLA')!;
    expect(await analyzeFilings(edgar, tesla, ['revenue'], { kind: 'latest', count: 1 })).toEqual({
      ok: false,
      company: tesla,
      reason: 'EDGAR has no XBRL financial data for Tesla, Inc. (TSLA, CIK 0001318605)',
    });
  });
});

describe('deduplication of the shipped dataset', () => {
  it('keeps one figure per fiscal year although each 10-K repeats the two years before it', () => {
    const facts = edgarJson<CompanyFacts>('/api/xbrl/companyfacts/CIK0000320193.json');
    const revenueFacts = facts.facts['us-gaap']!.RevenueFromContractWithCustomerExcludingAssessedTax!.units.USD!;
    const annual = revenueFacts.filter((fact) => fact.form === '10-K');
    expect(annual.length).toBeGreaterThan(new Set(annual.map((fact) => fact.end)).size);
    const years = annualFigures(facts);
    expect(years.map((year) => year.fiscalYear)).toEqual([2020, 2021, 2022, 2023, 2024]);
    expect(years.map((year) => year.sources.revenue!.accn)).toEqual([
      '0000320193-22-000108',
      '0000320193-23-000106',
      '0000320193-24-000123',
      '0000320193-24-000123',
      '0000320193-24-000123',
    ]);
  });
});
