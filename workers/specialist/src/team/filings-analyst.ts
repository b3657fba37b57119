import type { AnalysisItem } from '../../../../schemas/messages.ts';
import type { CompanyRef } from '../analysis/company-directory.ts';
import { annualFigures, comparisonBase, type YearFigures } from '../analysis/figures.ts';
import { formatChange, formatValue } from '../analysis/format.ts';
import { INPUTS, METRIC_INFO, type Metric } from '../analysis/metrics.ts';
import type { PeriodRequest } from '../analysis/question.ts';
import { paddedCik, type EdgarClient } from '../edgar/client.ts';

export const FILINGS_ANALYST = 'Filings Analyst';

export interface FilingsReport {
  company: CompanyRef;
  /** The registrant's name as EDGAR gives it. */
  name: string;
  /** Figures of the fiscal years asked for that EDGAR has, oldest first. */
  years: YearFigures[];
  /** Each selected year's predecessor, when EDGAR has it, for year-over-year changes. */
  previous: Map<number, YearFigures>;
  metrics: Metric[];
  /** Fiscal years asked for that the filings do not cover. */
  missingYears: number[];
  available: number[];
  fiscalYearEnd: string | null;
}

export type FilingsOutcome = { ok: true; report: FilingsReport } | { ok: false; company: CompanyRef; reason: string };

function selectYears(all: YearFigures[], period: PeriodRequest): { years: YearFigures[]; missing: number[] } {
  const withRevenue = all.filter((year) => Object.keys(year.values).length > 0);
  if (period.kind === 'latest') return { years: withRevenue.slice(-period.count), missing: [] };
  if (period.kind === 'since') return { years: withRevenue.filter((year) => year.fiscalYear >= period.from), missing: [] };
  const years = withRevenue.filter((year) => period.years.includes(year.fiscalYear));
  return { years, missing: period.years.filter((wanted) => !years.some((year) => year.fiscalYear === wanted)) };
}

/** Reads the company's XBRL facts and computes the figures asked for, per fiscal year, deduplicated by period. */
export async function analyzeFilings(
  edgar: EdgarClient,
  company: CompanyRef,
  metrics: Metric[],
  period: PeriodRequest,
): Promise<FilingsOutcome> {
  const [facts, submissions] = await Promise.all([edgar.companyFacts(company.cik), edgar.submissions(company.cik)]);
  if (!facts)
    return {
      ok: false,
      company,
      reason: `EDGAR has no XBRL financial data for ${company.title} (${company.ticker}, CIK ${paddedCik(company.cik)})`,
    };
  const all = annualFigures(facts);
  const { years, missing } = selectYears(all, period);
  if (!years.length) {
    return {
      ok: false,
      company,
      reason: `the filings of ${facts.entityName} have no annual figures for ${period.kind === 'years' ? period.years.join(', ') : 'the years asked for'}`,
    };
  }
  const byYear = new Map(all.map((year) => [year.fiscalYear, year]));
  const previous = new Map<number, YearFigures>();
  for (const year of years) {
    const before = byYear.get(year.fiscalYear - 1);
    if (before) previous.set(year.fiscalYear, before);
  }
  return {
    ok: true,
    report: {
      company,
      name: facts.entityName,
      years,
      previous,
      metrics,
      missingYears: missing,
      available: all.map((year) => year.fiscalYear),
      fiscalYearEnd: submissions?.fiscalYearEnd ?? null,
    },
  };
}

/** The metrics asked for, then what they are computed from, each once. */
function shownMetrics(metrics: Metric[]): Metric[] {
  const shown: Metric[] = [];
  for (const metric of metrics) for (const name of [metric, ...(INPUTS[metric] ?? [])]) if (!shown.includes(name)) shown.push(name);
  return shown;
}

function cell(report: FilingsReport, year: YearFigures, metric: Metric): string {
  const value = year.values[metric];
  if (value === undefined) return 'not reported';
  const { kind } = METRIC_INFO[metric];
  const before = comparisonBase(metric, year, report.previous.get(year.fiscalYear));
  return before === undefined ? formatValue(kind, value) : `${formatValue(kind, value)} (${formatChange(kind, before, value)})`;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The analyst's message: a table of the figures with their year-over-year changes, and where each came from. */
export function filingsItem(outcome: FilingsOutcome): AnalysisItem {
  if (!outcome.ok) return { role: 'filings', name: FILINGS_ANALYST, content: `No figures: ${outcome.reason}.` };
  const report = outcome.report;
  const metrics = shownMetrics(report.metrics);
  const yearEnd = report.fiscalYearEnd
    ? ` Fiscal years end in ${MONTHS[Number(report.fiscalYearEnd.slice(0, 2)) - 1] ?? `month ${report.fiscalYearEnd.slice(0, 2)}`}.`
    : '';
  const lines = [
    `${report.name} (${report.company.ticker}, CIK ${paddedCik(report.company.cik)}), from SEC EDGAR XBRL company facts; one figure per fiscal year, the latest filed when several filings report it.${yearEnd}`,
    '',
    `| Fiscal year | ${metrics.map((m) => METRIC_INFO[m].label).join(' | ')} |`,
    `|---|${metrics.map(() => '---').join('|')}|`,
    ...report.years.map(
      (year) => `| FY${year.fiscalYear} (${year.start} to ${year.end}) | ${metrics.map((m) => cell(report, year, m)).join(' | ')} |`,
    ),
    '',
    'Changes in parentheses are against the previous fiscal year (margins in percentage points).',
  ];
  const filings = new Map<string, { form: string; filed: string; years: number[] }>();
  for (const year of report.years) {
    for (const source of Object.values(year.sources)) {
      const filing = filings.get(source.accn) ?? { form: source.form, filed: source.filed, years: [] };
      if (!filing.years.includes(year.fiscalYear)) filing.years.push(year.fiscalYear);
      filings.set(source.accn, filing);
    }
  }
  lines.push(`Sources: ${[...filings].map(([accn, f]) => `${f.form} ${accn} filed ${f.filed} (FY${f.years.join(', FY')})`).join('; ')}.`);
  if (metrics.includes('eps_diluted')) {
    lines.push(
      'Diluted EPS is as reported in the latest filing covering each year (share splits after that filing are not applied); its changes are against the previous year as that same filing reports it.',
    );
  }
  if (report.missingYears.length)
    lines.push(
      `Not in the filings: FY${report.missingYears.join(', FY')} (available: FY${report.available[0]} to FY${report.available.at(-1)}).`,
    );
  return { role: 'filings', name: FILINGS_ANALYST, content: lines.join('\n') };
}
