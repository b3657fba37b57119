/** The figures the filings analyst can compute, and the us-gaap concepts each is read from. */

export const METRICS = [
  'revenue',
  'net_income',
  'net_margin',
  'gross_profit',
  'gross_margin',
  'operating_income',
  'operating_margin',
  'eps_diluted',
  'operating_cash_flow',
  'capex',
  'free_cash_flow',
] as const;
export type Metric = (typeof METRICS)[number];

export type MetricKind = 'money' | 'ratio' | 'per_share';

export const METRIC_INFO: Record<Metric, { label: string; kind: MetricKind }> = {
  revenue: { label: 'Revenue', kind: 'money' },
  net_income: { label: 'Net income', kind: 'money' },
  net_margin: { label: 'Net margin', kind: 'ratio' },
  gross_profit: { label: 'Gross profit', kind: 'money' },
  gross_margin: { label: 'Gross margin', kind: 'ratio' },
  operating_income: { label: 'Operating income', kind: 'money' },
  operating_margin: { label: 'Operating margin', kind: 'ratio' },
  eps_diluted: { label: 'Diluted EPS', kind: 'per_share' },
  operating_cash_flow: { label: 'Operating cash flow', kind: 'money' },
  capex: { label: 'Capital expenditure', kind: 'money' },
  free_cash_flow: { label: 'Free cash flow', kind: 'money' },
};

/** Figures read straight from facts; the others are computed from these. */
export type ReportedMetric =
  | 'revenue'
  | 'net_income'
  | 'gross_profit'
  | 'cost_of_revenue'
  | 'operating_income'
  | 'eps_diluted'
  | 'operating_cash_flow'
  | 'capex';

/**
 * Concepts in order of preference: companies change concepts over the years (revenue moved from
 * SalesRevenueNet and Revenues to RevenueFromContractWithCustomer… with ASC 606), so each fiscal year takes
 * the first concept that has it.
 */
export const REPORTED: Record<ReportedMetric, { concepts: string[]; unit: string }> = {
  revenue: {
    concepts: [
      'RevenueFromContractWithCustomerExcludingAssessedTax',
      'Revenues',
      'SalesRevenueNet',
      'RevenueFromContractWithCustomerIncludingAssessedTax',
    ],
    unit: 'USD',
  },
  net_income: { concepts: ['NetIncomeLoss', 'ProfitLoss'], unit: 'USD' },
  gross_profit: { concepts: ['GrossProfit'], unit: 'USD' },
  cost_of_revenue: { concepts: ['CostOfRevenue', 'CostOfGoodsAndServicesSold', 'CostOfGoodsSold'], unit: 'USD' },
  operating_income: { concepts: ['OperatingIncomeLoss'], unit: 'USD' },
  eps_diluted: { concepts: ['EarningsPerShareDiluted'], unit: 'USD/shares' },
  operating_cash_flow: { concepts: ['NetCashProvidedByUsedInOperatingActivities'], unit: 'USD' },
  capex: { concepts: ['PaymentsToAcquirePropertyPlantAndEquipment', 'PaymentsToAcquireProductiveAssets'], unit: 'USD' },
};

/** What a metric is computed from, so the analyst can show its inputs beside it. */
export const INPUTS: Partial<Record<Metric, Metric[]>> = {
  net_margin: ['net_income', 'revenue'],
  gross_margin: ['gross_profit', 'revenue'],
  operating_margin: ['operating_income', 'revenue'],
  free_cash_flow: ['operating_cash_flow', 'capex'],
};
