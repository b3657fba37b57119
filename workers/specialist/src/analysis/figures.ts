import type { CompanyFacts, XbrlFact } from '../edgar/schemas.ts';
import { dedupeByFiscalYear, fiscalYearNamer, isAnnual, type AnnualFact } from './annual-facts.ts';
import { METRIC_INFO, REPORTED, type Metric, type ReportedMetric } from './metrics.ts';

/** Where a reported figure came from. */
interface FactSource {
  concept: string;
  accn: string;
  form: string;
  filed: string;
}

export interface YearFigures {
  fiscalYear: number;
  start: string;
  end: string;
  values: Partial<Record<Metric, number>>;
  sources: Partial<Record<Metric, FactSource>>;
  /**
   * The previous fiscal year's figure as the same filing reports it: the like-for-like comparative (per-share
   * figures of different filings may straddle a share split).
   */
  sameFilingPrior: Partial<Record<Metric, number>>;
}

function usGaapFacts(facts: CompanyFacts, concept: string, unit: string): XbrlFact[] {
  return facts.facts['us-gaap']?.[concept]?.units[unit] ?? [];
}

/** Each fiscal year's figure of one reported metric, from the first concept (in preference order) that has it. */
type SeriesFact = AnnualFact & { concept: string; sameFilingPrior?: number };

function reportedSeries(facts: CompanyFacts, metric: ReportedMetric, nameYear: (end: string) => number): Map<number, SeriesFact> {
  const series = new Map<number, SeriesFact>();
  const { concepts, unit } = REPORTED[metric];
  for (const concept of concepts) {
    const all = usGaapFacts(facts, concept, unit);
    for (const [year, fact] of dedupeByFiscalYear(all, nameYear)) {
      if (series.has(year)) continue;
      const prior = all.find((other) => other.accn === fact.accn && isAnnual(other) && nameYear(other.end) === year - 1);
      series.set(year, { ...fact, concept, sameFilingPrior: prior?.val });
    }
  }
  return series;
}

const ratio = (part: number | undefined, whole: number | undefined) => (part === undefined || !whole ? undefined : part / whole);

/**
 * Every fiscal year's figures, oldest first: reported ones deduplicated by year, margins and free cash
 * flow computed from them, gross profit from revenue minus cost of revenue where it is not reported.
 */
export function annualFigures(facts: CompanyFacts): YearFigures[] {
  const all = Object.values(facts.facts['us-gaap'] ?? {}).flatMap((concept) => Object.values(concept.units).flat());
  const nameYear = fiscalYearNamer(all);
  const reported = Object.fromEntries(
    (Object.keys(REPORTED) as ReportedMetric[]).map((metric) => [metric, reportedSeries(facts, metric, nameYear)]),
  ) as Record<ReportedMetric, ReturnType<typeof reportedSeries>>;

  const years = new Set<number>();
  for (const series of Object.values(reported)) for (const year of series.keys()) years.add(year);

  return [...years]
    .sort((a, b) => a - b)
    .map((fiscalYear) => {
      const values: YearFigures['values'] = {};
      const sources: YearFigures['sources'] = {};
      const sameFilingPrior: YearFigures['sameFilingPrior'] = {};
      let period: AnnualFact | undefined;
      for (const metric of [
        'revenue',
        'net_income',
        'gross_profit',
        'operating_income',
        'eps_diluted',
        'operating_cash_flow',
        'capex',
      ] as const) {
        const fact = reported[metric].get(fiscalYear);
        if (!fact) continue;
        values[metric] = fact.val;
        sources[metric] = { concept: fact.concept, accn: fact.accn, form: fact.form, filed: fact.filed };
        if (fact.sameFilingPrior !== undefined) sameFilingPrior[metric] = fact.sameFilingPrior;
        period ??= fact;
      }
      const cost = reported.cost_of_revenue.get(fiscalYear);
      if (values.gross_profit === undefined && cost && values.revenue !== undefined) {
        values.gross_profit = values.revenue - cost.val;
        sources.gross_profit = {
          concept: `${sources.revenue!.concept} - ${cost.concept}`,
          accn: cost.accn,
          form: cost.form,
          filed: cost.filed,
        };
      }
      period ??= cost;
      values.net_margin = ratio(values.net_income, values.revenue);
      values.gross_margin = ratio(values.gross_profit, values.revenue);
      values.operating_margin = ratio(values.operating_income, values.revenue);
      if (values.operating_cash_flow !== undefined && values.capex !== undefined)
        values.free_cash_flow = values.operating_cash_flow - values.capex;
      for (const metric of Object.keys(values) as Metric[]) if (values[metric] === undefined) delete values[metric];
      return { fiscalYear, start: period!.start, end: period!.end, values, sources, sameFilingPrior };
    });
}

/**
 * What a year's figure is compared with: the previous year's figure, except per-share figures, which
 * are compared with the previous year as the same filing reports it (a split between two filings would
 * otherwise show as a collapse or a leap).
 */
export function comparisonBase(metric: Metric, year: YearFigures, previous: YearFigures | undefined): number | undefined {
  return METRIC_INFO[metric].kind === 'per_share' ? year.sameFilingPrior[metric] : previous?.values[metric];
}

/** Whether two years' figures can be compared over the whole span (per-share figures: only within one filing). */
export function comparableSpan(metric: Metric, first: YearFigures, last: YearFigures): boolean {
  return METRIC_INFO[metric].kind !== 'per_share' || first.sources[metric]?.accn === last.sources[metric]?.accn;
}
