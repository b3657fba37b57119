/**
 * Writes the offline EDGAR dataset (data/edgar) in the SEC's JSON shapes from the figures below: annual
 * figures of five companies as their 10-Ks report them (USD millions; diluted EPS in USD as each filing
 * states it, so that splits show as restatements). Every 10-K carries its year and the two before it, as
 * real company facts do, so the same period appears in up to three filings; frames go to the latest filed.
 *
 *   npx tsx scripts/dev/build-edgar-dataset.ts [data/edgar]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
const root = process.argv[2] ?? join(import.meta.dirname, '../../data/edgar');
const M = 1_000_000;

const LABELS: Record<string, [string, string]> = {
  RevenueFromContractWithCustomerExcludingAssessedTax: [
    'Revenue from Contract with Customer, Excluding Assessed Tax',
    'Amount, excluding tax collected from customer, of revenue from satisfaction of performance obligation by transferring promised good or service to customer.',
  ],
  Revenues: [
    'Revenues',
    'Amount of revenue recognized from goods sold, services rendered, insurance premiums, or other activities that constitute an earning process.',
  ],
  NetIncomeLoss: [
    'Net Income (Loss) Attributable to Parent',
    'The portion of profit or loss for the period, net of income taxes, which is attributable to the parent.',
  ],
  EarningsPerShareDiluted: [
    'Earnings Per Share, Diluted',
    'The amount of net income (loss) for the period available to each share of common stock or common unit outstanding during the reporting period and to each share or unit that would have been outstanding assuming the issuance of common shares or units for all dilutive potential common shares or units outstanding during the reporting period.',
  ],
  NetCashProvidedByUsedInOperatingActivities: [
    'Net Cash Provided by (Used in) Operating Activities',
    'Amount of cash inflow (outflow) from operating activities, including discontinued operations.',
  ],
  PaymentsToAcquirePropertyPlantAndEquipment: [
    'Payments to Acquire Property, Plant, and Equipment',
    'The cash outflow associated with the acquisition of long-lived, physical assets that are used in the normal conduct of business to produce goods and services and not intended for resale.',
  ],
  PaymentsToAcquireProductiveAssets: [
    'Payments to Acquire Productive Assets',
    'The cash outflow from purchases of and capital improvements on property, plant and equipment (capital expenditures), software, and other intangible assets.',
  ],
  GrossProfit: [
    'Gross Profit',
    'Aggregate revenue less cost of goods and services sold or operating expenses directly attributable to the revenue generation activity.',
  ],
  OperatingIncomeLoss: [
    'Operating Income (Loss)',
    'The net result for the period of deducting operating expenses from operating revenues.',
  ],
  CostOfRevenue: ['Cost of Revenue', 'The aggregate cost of goods produced and sold and services rendered during the reporting period.'],
  CostOfGoodsAndServicesSold: [
    'Cost of Goods and Services Sold',
    'The aggregate costs related to goods produced and sold and services rendered by an entity during the reporting period.',
  ],
};

type Figures = { rev: number; ni: number; gp?: number; cost?: number; op: number; ocf?: number; capex?: number; eps?: number };
interface Company {
  cik: number;
  tickers: string[];
  title: string;
  name: string;
  sic: string;
  sicDescription: string;
  fye: string;
  state: string;
  ein: string;
  website: string;
  concepts: { rev: string; capex: string; gp?: string; cost?: string };
  years: Record<number, [string, string, Figures]>;
  tenKs: { fy: number; accn: string; filed: string; doc: string; covers: number[]; eps: Record<number, number> }[];
  tenQs?: { fy: number; fp: string; accn: string; filed: string; doc: string; report: string; periods: [string, string, Figures][] }[];
}
interface Fact {
  start: string;
  end: string;
  val: number;
  accn: string;
  fy: number;
  fp: string;
  form: string;
  filed: string;
  frame?: string;
}

// Figures per fiscal year: rev, ni, gp | cost, op, ocf, capex in USD millions; EPS per filing.
const companies: Company[] = [
  {
    cik: 320193,
    tickers: ['AAPL'],
    title: 'Apple Inc.',
    name: 'Apple Inc.',
    sic: '3571',
    sicDescription: 'Electronic Computers',
    fye: '0928',
    state: 'CA',
    ein: '942404110',
    website: 'https://www.apple.com',
    concepts: {
      rev: 'RevenueFromContractWithCustomerExcludingAssessedTax',
      capex: 'PaymentsToAcquirePropertyPlantAndEquipment',
      gp: 'GrossProfit',
    },
    years: {
      2020: ['2019-09-29', '2020-09-26', { rev: 274515, ni: 57411, gp: 104956, op: 66288, ocf: 80674, capex: 7309 }],
      2021: ['2020-09-27', '2021-09-25', { rev: 365817, ni: 94680, gp: 152836, op: 108949, ocf: 104038, capex: 11085 }],
      2022: ['2021-09-26', '2022-09-24', { rev: 394328, ni: 99803, gp: 170782, op: 119437, ocf: 122151, capex: 10708 }],
      2023: ['2022-09-25', '2023-09-30', { rev: 383285, ni: 96995, gp: 169148, op: 114301, ocf: 110543, capex: 10959 }],
      2024: ['2023-10-01', '2024-09-28', { rev: 391035, ni: 93736, gp: 180683, op: 123216, ocf: 118254, capex: 9447 }],
    },
    tenKs: [
      {
        fy: 2021,
        accn: '0000320193-21-000105',
        filed: '2021-10-29',
        doc: 'aapl-20210925.htm',
        covers: [2021, 2020],
        eps: { 2021: 5.61, 2020: 3.28 },
      },
      {
        fy: 2022,
        accn: '0000320193-22-000108',
        filed: '2022-10-28',
        doc: 'aapl-20220924.htm',
        covers: [2022, 2021, 2020],
        eps: { 2022: 6.11, 2021: 5.61, 2020: 3.28 },
      },
      {
        fy: 2023,
        accn: '0000320193-23-000106',
        filed: '2023-11-03',
        doc: 'aapl-20230930.htm',
        covers: [2023, 2022, 2021],
        eps: { 2023: 6.13, 2022: 6.11, 2021: 5.61 },
      },
      {
        fy: 2024,
        accn: '0000320193-24-000123',
        filed: '2024-11-01',
        doc: 'aapl-20240928.htm',
        covers: [2024, 2023, 2022],
        eps: { 2024: 6.08, 2023: 6.13, 2022: 6.11 },
      },
    ],
    tenQs: [
      {
        fy: 2025,
        fp: 'Q1',
        accn: '0000320193-25-000008',
        filed: '2025-01-31',
        doc: 'aapl-20241228.htm',
        report: '2024-12-28',
        periods: [
          ['2024-09-29', '2024-12-28', { rev: 124300, ni: 36330, gp: 58275, op: 42832, eps: 2.4 }],
          ['2023-10-01', '2023-12-30', { rev: 119575, ni: 33916, gp: 54855, op: 40373, eps: 2.18 }],
        ],
      },
    ],
  },
  {
    cik: 789019,
    tickers: ['MSFT'],
    title: 'MICROSOFT CORP',
    name: 'MICROSOFT CORP',
    sic: '7372',
    sicDescription: 'Services-Prepackaged Software',
    fye: '0630',
    state: 'WA',
    ein: '911144442',
    website: 'https://www.microsoft.com',
    concepts: {
      rev: 'RevenueFromContractWithCustomerExcludingAssessedTax',
      capex: 'PaymentsToAcquirePropertyPlantAndEquipment',
      gp: 'GrossProfit',
    },
    years: {
      2020: ['2019-07-01', '2020-06-30', { rev: 143015, ni: 44281, gp: 96937, op: 52959, ocf: 60675, capex: 15441 }],
      2021: ['2020-07-01', '2021-06-30', { rev: 168088, ni: 61271, gp: 115856, op: 69916, ocf: 76740, capex: 20622 }],
      2022: ['2021-07-01', '2022-06-30', { rev: 198270, ni: 72738, gp: 135620, op: 83383, ocf: 89035, capex: 23886 }],
      2023: ['2022-07-01', '2023-06-30', { rev: 211915, ni: 72361, gp: 146052, op: 88523, ocf: 87582, capex: 28107 }],
      2024: ['2023-07-01', '2024-06-30', { rev: 245122, ni: 88136, gp: 171008, op: 109433, ocf: 118548, capex: 44477 }],
    },
    tenKs: [
      {
        fy: 2021,
        accn: '0001564590-21-039151',
        filed: '2021-07-29',
        doc: 'msft-10k_20210630.htm',
        covers: [2021, 2020],
        eps: { 2021: 8.05, 2020: 5.76 },
      },
      {
        fy: 2022,
        accn: '0001564590-22-026876',
        filed: '2022-07-28',
        doc: 'msft-10k_20220630.htm',
        covers: [2022, 2021, 2020],
        eps: { 2022: 9.65, 2021: 8.05, 2020: 5.76 },
      },
      {
        fy: 2023,
        accn: '0000950170-23-035122',
        filed: '2023-07-27',
        doc: 'msft-20230630.htm',
        covers: [2023, 2022, 2021],
        eps: { 2023: 9.68, 2022: 9.65, 2021: 8.05 },
      },
      {
        fy: 2024,
        accn: '0000950170-24-087843',
        filed: '2024-07-30',
        doc: 'msft-20240630.htm',
        covers: [2024, 2023, 2022],
        eps: { 2024: 11.8, 2023: 9.68, 2022: 9.65 },
      },
    ],
  },
  {
    cik: 1652044,
    tickers: ['GOOGL', 'GOOG'],
    title: 'Alphabet Inc.',
    name: 'Alphabet Inc.',
    sic: '7370',
    sicDescription: 'Services-Computer Programming, Data Processing, Etc.',
    fye: '1231',
    state: 'DE',
    ein: '611767919',
    website: 'https://abc.xyz',
    concepts: { rev: 'Revenues', capex: 'PaymentsToAcquirePropertyPlantAndEquipment', cost: 'CostOfRevenue' },
    years: {
      2020: ['2020-01-01', '2020-12-31', { rev: 182527, ni: 40269, cost: 84732, op: 41224, ocf: 65124, capex: 22281 }],
      2021: ['2021-01-01', '2021-12-31', { rev: 257637, ni: 76033, cost: 110939, op: 78714, ocf: 91652, capex: 24640 }],
      2022: ['2022-01-01', '2022-12-31', { rev: 282836, ni: 59972, cost: 126203, op: 74842, ocf: 91495, capex: 31485 }],
      2023: ['2023-01-01', '2023-12-31', { rev: 307394, ni: 73795, cost: 133332, op: 84293, ocf: 101746, capex: 32251 }],
      2024: ['2024-01-01', '2024-12-31', { rev: 350018, ni: 100118, cost: 146306, op: 112390, ocf: 125299, capex: 52535 }],
    },
    tenKs: [
      {
        fy: 2021,
        accn: '0001652044-22-000019',
        filed: '2022-02-02',
        doc: 'goog-20211231.htm',
        covers: [2021, 2020],
        eps: { 2021: 112.2, 2020: 58.61 },
      },
      {
        fy: 2022,
        accn: '0001652044-23-000016',
        filed: '2023-02-03',
        doc: 'goog-20221231.htm',
        covers: [2022, 2021, 2020],
        eps: { 2022: 4.56, 2021: 5.61, 2020: 2.93 },
      },
      {
        fy: 2023,
        accn: '0001652044-24-000022',
        filed: '2024-01-31',
        doc: 'goog-20231231.htm',
        covers: [2023, 2022, 2021],
        eps: { 2023: 5.8, 2022: 4.56, 2021: 5.61 },
      },
      {
        fy: 2024,
        accn: '0001652044-25-000014',
        filed: '2025-02-05',
        doc: 'goog-20241231.htm',
        covers: [2024, 2023, 2022],
        eps: { 2024: 8.04, 2023: 5.8, 2022: 4.56 },
      },
    ],
  },
  {
    cik: 1018724,
    tickers: ['AMZN'],
    title: 'AMAZON COM INC',
    name: 'AMAZON COM INC',
    sic: '5961',
    sicDescription: 'Retail-Catalog & Mail-Order Houses',
    fye: '1231',
    state: 'DE',
    ein: '911646860',
    website: 'https://www.amazon.com',
    concepts: {
      rev: 'RevenueFromContractWithCustomerExcludingAssessedTax',
      capex: 'PaymentsToAcquireProductiveAssets',
      cost: 'CostOfGoodsAndServicesSold',
    },
    years: {
      2020: ['2020-01-01', '2020-12-31', { rev: 386064, ni: 21331, cost: 233307, op: 22899, ocf: 66064, capex: 40140 }],
      2021: ['2021-01-01', '2021-12-31', { rev: 469822, ni: 33364, cost: 272344, op: 24879, ocf: 46327, capex: 61053 }],
      2022: ['2022-01-01', '2022-12-31', { rev: 513983, ni: -2722, cost: 288831, op: 12248, ocf: 46752, capex: 63645 }],
      2023: ['2023-01-01', '2023-12-31', { rev: 574785, ni: 30425, cost: 304739, op: 36852, ocf: 84946, capex: 52729 }],
      2024: ['2024-01-01', '2024-12-31', { rev: 637959, ni: 59248, cost: 326288, op: 68593, ocf: 115877, capex: 83004 }],
    },
    tenKs: [
      {
        fy: 2021,
        accn: '0001018724-22-000005',
        filed: '2022-02-04',
        doc: 'amzn-20211231.htm',
        covers: [2021, 2020],
        eps: { 2021: 64.81, 2020: 41.83 },
      },
      {
        fy: 2022,
        accn: '0001018724-23-000004',
        filed: '2023-02-03',
        doc: 'amzn-20221231.htm',
        covers: [2022, 2021, 2020],
        eps: { 2022: -0.27, 2021: 3.24, 2020: 2.09 },
      },
      {
        fy: 2023,
        accn: '0001018724-24-000008',
        filed: '2024-02-02',
        doc: 'amzn-20231231.htm',
        covers: [2023, 2022, 2021],
        eps: { 2023: 2.9, 2022: -0.27, 2021: 3.24 },
      },
      {
        fy: 2024,
        accn: '0001018724-25-000004',
        filed: '2025-02-07',
        doc: 'amzn-20241231.htm',
        covers: [2024, 2023, 2022],
        eps: { 2024: 5.53, 2023: 2.9, 2022: -0.27 },
      },
    ],
  },
  {
    cik: 1045810,
    tickers: ['NVDA'],
    title: 'NVIDIA CORP',
    name: 'NVIDIA CORP',
    sic: '3674',
    sicDescription: 'Semiconductors & Related Devices',
    fye: '0126',
    state: 'DE',
    ein: '943177549',
    website: 'https://www.nvidia.com',
    concepts: { rev: 'Revenues', capex: 'PaymentsToAcquirePropertyPlantAndEquipment', gp: 'GrossProfit' },
    years: {
      2020: ['2019-01-28', '2020-01-26', { rev: 10918, ni: 2796, gp: 6768, op: 2846, ocf: 4761, capex: 489 }],
      2021: ['2020-01-27', '2021-01-31', { rev: 16675, ni: 4332, gp: 10396, op: 4532, ocf: 5822, capex: 1128 }],
      2022: ['2021-02-01', '2022-01-30', { rev: 26914, ni: 9752, gp: 17475, op: 10041, ocf: 9108, capex: 976 }],
      2023: ['2022-01-31', '2023-01-29', { rev: 26974, ni: 4368, gp: 15356, op: 4224, ocf: 5641, capex: 1833 }],
      2024: ['2023-01-30', '2024-01-28', { rev: 60922, ni: 29760, gp: 44301, op: 32972, ocf: 28090, capex: 1069 }],
      2025: ['2024-01-29', '2025-01-26', { rev: 130497, ni: 72880, gp: 97858, op: 81453, ocf: 64089, capex: 3236 }],
    },
    tenKs: [
      {
        fy: 2021,
        accn: '0001045810-21-000010',
        filed: '2021-02-26',
        doc: 'nvda-20210131.htm',
        covers: [2021, 2020],
        eps: { 2021: 6.9, 2020: 4.52 },
      },
      {
        fy: 2022,
        accn: '0001045810-22-000036',
        filed: '2022-03-18',
        doc: 'nvda-20220130.htm',
        covers: [2022, 2021, 2020],
        eps: { 2022: 3.85, 2021: 1.73, 2020: 1.13 },
      },
      {
        fy: 2023,
        accn: '0001045810-23-000017',
        filed: '2023-02-24',
        doc: 'nvda-20230129.htm',
        covers: [2023, 2022, 2021],
        eps: { 2023: 1.74, 2022: 3.85, 2021: 1.73 },
      },
      {
        fy: 2024,
        accn: '0001045810-24-000029',
        filed: '2024-02-21',
        doc: 'nvda-20240128.htm',
        covers: [2024, 2023, 2022],
        eps: { 2024: 11.93, 2023: 1.74, 2022: 3.85 },
      },
      {
        fy: 2025,
        accn: '0001045810-25-000023',
        filed: '2025-02-26',
        doc: 'nvda-20250126.htm',
        covers: [2025, 2024, 2023],
        eps: { 2025: 2.94, 2024: 1.19, 2023: 0.17 },
      },
    ],
  },
];

const extraTickers = [
  { cik: 1318605, ticker: 'TSLA', title: 'Tesla, Inc.' },
  { cik: 1326801, ticker: 'META', title: 'Meta Platforms, Inc.' },
];

const pad = (cik: number) => String(cik).padStart(10, '0');
const days = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 86400000;
/** The calendar year an annual period overlaps most, as the SEC frames API assigns it. */
function calendarFrame(start: string, end: string): string {
  const y1 = Number(start.slice(0, 4));
  const y2 = Number(end.slice(0, 4));
  if (y1 === y2) return `CY${y1}`;
  const inFirst = days(start, `${y1 + 1}-01-01`);
  const inSecond = days(`${y2}-01-01`, end) + 1;
  return `CY${inFirst >= inSecond ? y1 : y2}`;
}
function quarterFrame(start: string, end: string): string {
  const endDate = new Date(`${end}T00:00:00Z`);
  const mid = new Date((Date.parse(start) + endDate.getTime()) / 2);
  return `CY${mid.getUTCFullYear()}Q${Math.floor(mid.getUTCMonth() / 3) + 1}`;
}

function write(path: string, value: unknown): void {
  const file = join(root, path);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value)}\n`);
}

const tickerRows: { cik_str: number; ticker: string; title: string }[] = [];
for (const c of companies) for (const t of c.tickers) tickerRows.push({ cik_str: c.cik, ticker: t, title: c.title });
for (const e of extraTickers) tickerRows.push({ cik_str: e.cik, ticker: e.ticker, title: e.title });
write('files/company_tickers.json', Object.fromEntries(tickerRows.map((row, i) => [String(i), row])));

for (const c of companies) {
  const facts: Record<string, { label: string; description: string; units: Record<string, Fact[]> }> = {};
  const add = (concept: string, unit: string, fact: Fact) => {
    facts[concept] ??= { label: LABELS[concept]![0], description: LABELS[concept]![1], units: {} };
    const units = facts[concept]!.units;
    units[unit] ??= [];
    units[unit]!.push(fact);
  };
  const fieldConcepts: Record<string, string | undefined> = {
    rev: c.concepts.rev,
    ni: 'NetIncomeLoss',
    gp: 'GrossProfit',
    cost: c.concepts.cost,
    op: 'OperatingIncomeLoss',
    ocf: 'NetCashProvidedByUsedInOperatingActivities',
    capex: c.concepts.capex,
  };
  for (const k of c.tenKs) {
    for (const year of k.covers) {
      const [start, end, v] = c.years[year]!;
      const base = { start, end, accn: k.accn, fy: k.fy, fp: 'FY', form: '10-K', filed: k.filed };
      for (const [field, concept] of Object.entries(fieldConcepts)) {
        const value = v[field as keyof Figures];
        if (value === undefined || !concept) continue;
        add(concept, 'USD', { ...base, val: value * M });
      }
      add('EarningsPerShareDiluted', 'USD/shares', { ...base, val: k.eps[year]! });
    }
  }
  for (const q of c.tenQs ?? []) {
    for (const [start, end, v] of q.periods) {
      const base = { start, end, accn: q.accn, fy: q.fy, fp: q.fp, form: '10-Q', filed: q.filed };
      for (const [field, concept] of Object.entries(fieldConcepts)) {
        const value = v[field as keyof Figures];
        if (value === undefined || !concept) continue;
        add(concept, 'USD', { ...base, val: value * M });
      }
      add('EarningsPerShareDiluted', 'USD/shares', { ...base, val: v.eps! });
    }
  }
  // Frames: one fact per concept and calendar period, the most recently filed one (as the SEC assigns them).
  for (const concept of Object.values(facts)) {
    for (const list of Object.values(concept.units)) {
      list.sort((a, b) => a.end.localeCompare(b.end) || a.filed.localeCompare(b.filed));
      const latest = new Map<string, Fact>();
      for (const f of list) latest.set(`${f.start}/${f.end}`, f);
      for (const f of latest.values()) f.frame = days(f.start, f.end) > 300 ? calendarFrame(f.start, f.end) : quarterFrame(f.start, f.end);
      // The SEC's key order, frame last.
      for (let i = 0; i < list.length; i++) {
        const { start, end, val, accn, fy, fp, form, filed, frame } = list[i]!;
        list[i] = frame ? { start, end, val, accn, fy, fp, form, filed, frame } : { start, end, val, accn, fy, fp, form, filed };
      }
    }
  }
  write(`api/xbrl/companyfacts/CIK${pad(c.cik)}.json`, { cik: c.cik, entityName: c.name, facts: { 'us-gaap': facts } });

  const filings = [
    ...c.tenKs.map((k) => ({ accn: k.accn, filed: k.filed, report: c.years[k.fy]![1], form: '10-K', doc: k.doc, description: '10-K' })),
    ...(c.tenQs ?? []).map((q) => ({ accn: q.accn, filed: q.filed, report: q.report, form: '10-Q', doc: q.doc, description: '10-Q' })),
  ].sort((a, b) => b.filed.localeCompare(a.filed));
  const col = <T>(f: (filing: (typeof filings)[number]) => T) => filings.map(f);
  write(`submissions/CIK${pad(c.cik)}.json`, {
    cik: String(c.cik),
    entityType: 'operating',
    sic: c.sic,
    sicDescription: c.sicDescription,
    ownerOrg: null,
    insiderTransactionForOwnerExists: 0,
    insiderTransactionForIssuerExists: 1,
    name: c.name,
    tickers: c.tickers,
    exchanges: c.tickers.map(() => 'Nasdaq'),
    ein: c.ein,
    description: '',
    website: c.website,
    investorWebsite: '',
    category: 'Large accelerated filer',
    fiscalYearEnd: c.fye,
    stateOfIncorporation: c.state,
    stateOfIncorporationDescription: c.state,
    addresses: {},
    phone: '',
    flags: '',
    formerNames: [],
    filings: {
      recent: {
        accessionNumber: col((f) => f.accn),
        filingDate: col((f) => f.filed),
        reportDate: col((f) => f.report),
        acceptanceDateTime: col((f) => `${f.filed}T16:30:00.000Z`),
        act: col(() => '34'),
        form: col((f) => f.form),
        fileNumber: col(() => ''),
        filmNumber: col(() => ''),
        items: col(() => ''),
        core_type: col((f) => f.form),
        size: col(() => 0),
        isXBRL: col(() => 1),
        isInlineXBRL: col(() => 1),
        primaryDocument: col((f) => f.doc),
        primaryDocDescription: col((f) => f.description),
      },
      files: [],
    },
  });
}
