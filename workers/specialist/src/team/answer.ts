import { comparableSpan, comparisonBase } from '../analysis/figures.ts';
import { formatChange, formatValue } from '../analysis/format.ts';
import { METRIC_INFO, type Metric } from '../analysis/metrics.ts';
import type { FilingsOutcome, FilingsReport } from './filings-analyst.ts';

const EXAMPLE_QUESTION = "How did Apple's revenue and net margin change over the last three fiscal years?";

/** The supervisor's answer: `body` states the figures (a model may reword it), `footer` says where they come from. */
interface DraftAnswer {
  body: string;
  footer: string;
}

function shortName(report: FilingsReport): string {
  return report.company.title.replace(/,?\s+(Inc\.?|Corp\.?|Corporation|Co\.?|Ltd\.?|plc)$/i, '').replace(/\s+COM$/i, '');
}

/** "Revenue: $394.33B in FY2022 (+7.8%), $383.29B in FY2023 (-2.8%), …; -0.8% from FY2022 to FY2024." */
function metricLine(report: FilingsReport, metric: Metric): string {
  const { label, kind } = METRIC_INFO[metric];
  const points = report.years.filter((year) => year.values[metric] !== undefined);
  if (!points.length) return `- ${label}: not reported in the filings for these years.`;
  const steps = points.map((year) => {
    const value = year.values[metric]!;
    const before = comparisonBase(metric, year, report.previous.get(year.fiscalYear));
    return `${formatValue(kind, value)} in FY${year.fiscalYear}${before === undefined ? '' : ` (${formatChange(kind, before, value)})`}`;
  });
  const first = points[0]!;
  const last = points.at(-1)!;
  const overall =
    points.length > 1 && comparableSpan(metric, first, last)
      ? `; ${formatChange(kind, first.values[metric]!, last.values[metric]!)} from FY${first.fiscalYear} to FY${last.fiscalYear}`
      : '';
  return `- ${label}: ${steps.join(', ')}${overall}.`;
}

function companyBlock(report: FilingsReport): string {
  const first = report.years[0]!.fiscalYear;
  const last = report.years.at(-1)!.fiscalYear;
  const span = first === last ? `fiscal ${first}` : `fiscal ${first} to fiscal ${last}`;
  const lines = [
    `${shortName(report)} (${report.company.ticker}), ${span}:`,
    ...report.metrics.map((metric) => metricLine(report, metric)),
  ];
  if (report.missingYears.length)
    lines.push(
      `- FY${report.missingYears.join(', FY')} not in the filings (they cover FY${report.available[0]} to FY${report.available.at(-1)}).`,
    );
  return lines.join('\n');
}

/** Across companies: each one's latest selected year, side by side, for the first figure asked for. */
function comparison(reports: FilingsReport[]): string | null {
  if (reports.length < 2) return null;
  const metric = reports[0]!.metrics[0]!;
  const { label, kind } = METRIC_INFO[metric];
  const parts = reports.flatMap((report) => {
    const year = report.years.at(-1)!;
    const value = year.values[metric];
    return value === undefined ? [] : [`${shortName(report)} ${formatValue(kind, value)} (FY${year.fiscalYear})`];
  });
  return parts.length > 1
    ? `${label}, latest fiscal year: ${parts.join(' vs ')}. Fiscal years end at different dates, so the periods differ.`
    : null;
}

export function draftAnswer(outcomes: FilingsOutcome[]): DraftAnswer {
  if (!outcomes.length) {
    return {
      body: `I could not tell which company the question is about. Name a listed company or its ticker, for example: "${EXAMPLE_QUESTION}"`,
      footer: '',
    };
  }
  const reports = outcomes.flatMap((outcome) => (outcome.ok ? [outcome.report] : []));
  const blocks = reports.map(companyBlock);
  const compared = comparison(reports);
  if (compared) blocks.push(compared);
  for (const outcome of outcomes)
    if (!outcome.ok) blocks.push(`No figures for ${outcome.company.title} (${outcome.company.ticker}): ${outcome.reason}.`);
  const latest = reports.map((report) => {
    const filed = report.years.flatMap((year) => Object.values(year.sources)).sort((a, b) => b.filed.localeCompare(a.filed))[0];
    return filed ? `${shortName(report)}: ${filed.form} filed ${filed.filed}` : shortName(report);
  });
  return {
    body: blocks.join('\n\n'),
    footer: reports.length ? `Source: SEC EDGAR XBRL company facts (latest filing used: ${latest.join('; ')}).` : '',
  };
}
