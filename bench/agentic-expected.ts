import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The figures a correct answer states, read straight from the filings data (data/edgar's XBRL company facts),
 * not from the specialist's code: for fiscal year Y, the value of the first concept that has one in the 10-K
 * of fiscal year Y (fy Y, fp FY, a period of about a year), the latest period of that filing (its own year).
 */
const CONCEPTS = {
  Revenue: [
    'RevenueFromContractWithCustomerExcludingAssessedTax',
    'Revenues',
    'SalesRevenueNet',
    'RevenueFromContractWithCustomerIncludingAssessedTax',
  ],
  'Net income': ['NetIncomeLoss', 'ProfitLoss'],
} as const;
export type Figure = keyof typeof CONCEPTS;

interface Fact {
  val: number;
  fy?: number;
  fp?: string;
  form: string;
  start?: string;
  end: string;
  filed: string;
}
type Facts = { facts: { 'us-gaap': Record<string, { units: Record<string, Fact[]> }> } };

const DAY_MS = 86_400_000;
const isYear = (fact: Fact) => {
  if (!fact.start) return false;
  const days = (Date.parse(fact.end) - Date.parse(fact.start)) / DAY_MS;
  return days >= 350 && days <= 380;
};

function factsOf(root: string, cik: number): Facts {
  return JSON.parse(readFileSync(join(root, `data/edgar/api/xbrl/companyfacts/CIK${String(cik).padStart(10, '0')}.json`), 'utf8')) as Facts;
}

/** The line a correct answer has for the figure, as "Revenue: $60.92B in FY2024". */
export function expectedLine(root: string, cik: number, figure: Figure, fiscalYear: number): string {
  const facts = factsOf(root, cik).facts['us-gaap'];
  for (const concept of CONCEPTS[figure]) {
    const own = (facts[concept]?.units.USD ?? [])
      .filter((fact) => fact.fy === fiscalYear && fact.fp === 'FY' && /^10-K/.test(fact.form) && isYear(fact))
      .sort((a, b) => b.end.localeCompare(a.end) || b.filed.localeCompare(a.filed));
    const value = own[0]?.val;
    if (value !== undefined) return `${figure}: ${value < 0 ? '-' : ''}$${(Math.abs(value) / 1e9).toFixed(2)}B in FY${fiscalYear}`;
  }
  throw new Error(`data/edgar has no ${figure} for CIK ${cik} in fiscal ${fiscalYear}`);
}
