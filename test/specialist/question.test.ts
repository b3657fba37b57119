import { describe, expect, it } from 'vitest';
import { CompanyDirectory, normalizeName } from '../../workers/specialist/src/analysis/company-directory.ts';
import { parseQuestion } from '../../workers/specialist/src/analysis/question.ts';
import type { CompanyTickers } from '../../workers/specialist/src/edgar/schemas.ts';
import { edgarJson } from './helpers/edgar-dataset.ts';

const directory = new CompanyDirectory(edgarJson<CompanyTickers>('/files/company_tickers.json'));
const parse = (question: string) => {
  const plan = parseQuestion(question, directory);
  return { tickers: plan.companies.map((c) => c.ticker), metrics: plan.metrics, period: plan.period };
};

describe('the supervisor reads a question for companies, figures and periods', () => {
  it.each([
    [
      "How did Apple's revenue and net margin change over the last three fiscal years?",
      { tickers: ['AAPL'], metrics: ['revenue', 'net_margin'], period: { kind: 'latest', count: 3 } },
    ],
    ["What was MSFT's EPS in FY2023?", { tickers: ['MSFT'], metrics: ['eps_diluted'], period: { kind: 'years', years: [2023] } }],
    [
      'Compare Google and Amazon operating margins from 2021 to 2023',
      { tickers: ['GOOGL', 'AMZN'], metrics: ['operating_margin'], period: { kind: 'years', years: [2021, 2022, 2023] } },
    ],
    ['nvidia free cash flow since 2022', { tickers: ['NVDA'], metrics: ['free_cash_flow'], period: { kind: 'since', from: 2022 } }],
    [
      'How profitable was $amzn last year?',
      { tickers: ['AMZN'], metrics: ['operating_margin', 'net_margin'], period: { kind: 'latest', count: 1 } },
    ],
    [
      'Gross margin and capex of Microsoft Corp for the past 5 years',
      { tickers: ['MSFT'], metrics: ['gross_margin', 'capex'], period: { kind: 'latest', count: 5 } },
    ],
    ['FY24 revenue of Meta', { tickers: ['META'], metrics: ['revenue'], period: { kind: 'years', years: [2024] } }],
    [
      'How did sales grow at Amazon.com in fiscal 2022 and 2023?',
      { tickers: ['AMZN'], metrics: ['revenue'], period: { kind: 'years', years: [2022, 2023] } },
    ],
    [
      'Alphabet Inc. (GOOG) net income and cash flow',
      { tickers: ['GOOGL'], metrics: ['net_income', 'operating_cash_flow'], period: { kind: 'latest', count: 3 } },
    ],
    [
      'Compare the margins of NVDA, AAPL and MSFT in 2024',
      {
        tickers: ['NVDA', 'AAPL', 'MSFT'],
        metrics: ['gross_margin', 'operating_margin', 'net_margin'],
        period: { kind: 'years', years: [2024] },
      },
    ],
    [
      'What was Apple’s total revenue in its latest annual report?',
      { tickers: ['AAPL'], metrics: ['revenue'], period: { kind: 'latest', count: 1 } },
    ],
    [
      'What are the main risk factors in NVIDIA’s latest 10-K?',
      { tickers: ['NVDA'], metrics: ['revenue', 'net_income', 'net_margin'], period: { kind: 'latest', count: 1 } },
    ],
  ])('%s', (question, expected) => {
    expect(parse(question)).toEqual(expected);
  });

  it('takes revenue, net income and net margin over the last three fiscal years when the question names neither', () => {
    const plan = parseQuestion('Tell me about Apple', directory);
    expect(plan).toMatchObject({
      metrics: ['revenue', 'net_income', 'net_margin'],
      metricsDefaulted: true,
      period: { kind: 'latest', count: 3 },
      periodDefaulted: true,
    });
  });

  it('does not read financial abbreviations or ordinary upper-case words as tickers', () => {
    expect(parse('What are EPS and FCF for IT companies? I ask for a CEO.').tickers).toEqual([]);
  });

  it('finds no company in a question about none', () => {
    expect(parse('How did revenue and net margin change over the last three fiscal years?').tickers).toEqual([]);
  });

  it('normalizes registrant names as people write them', () => {
    expect(normalizeName('AMAZON COM INC')).toBe('amazon');
    expect(normalizeName('Meta Platforms, Inc.')).toBe('meta platforms');
    expect(normalizeName('The Walt Disney Co')).toBe('walt disney');
    expect(normalizeName('NVIDIA CORP')).toBe('nvidia');
  });
});
