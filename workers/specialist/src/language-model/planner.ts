import type { Tool } from '../../../../schemas/chat.ts';
import type { CompanyDirectory, CompanyRef } from '../analysis/company-directory.ts';
import { METRICS, type Metric } from '../analysis/metrics.ts';
import type { QuestionPlan } from '../analysis/question.ts';
import type { ChatClient } from './chat-client.ts';

const ANALYZE_FILINGS_TOOL: Tool = {
  type: 'function',
  function: {
    name: 'analyze_filings',
    description:
      'Compute financial figures of a US-listed company from its SEC filings: revenue, net income, margins, EPS, cash flow, capital expenditure and their growth.',
    parameters: {
      type: 'object',
      properties: {
        ticker: { type: 'string', description: 'Stock ticker of the company, e.g. AAPL' },
        metrics: { type: 'array', items: { type: 'string', enum: [...METRICS] }, description: 'The figures asked for' },
        fiscal_years: { type: 'integer', minimum: 1, maximum: 10, description: 'How many of the latest fiscal years' },
      },
      required: ['ticker'],
    },
  },
};

const SYSTEM = [
  'You plan the work of a financial analysis agent that reads SEC filings.',
  'Call analyze_filings once for each company the question is about, with its stock ticker (for example "the iPhone maker" is AAPL),',
  'the figures asked for and the number of fiscal years. Do not answer the question yourself.',
].join(' ');

interface Refinement {
  plan: QuestionPlan;
  /** What the model added, for the plan message; null when it added nothing. */
  note: string | null;
}

/**
 * The rules' plan stands; the model (through tool calling) may only fill what the rules left open: the
 * companies when none was recognised, the figures when none was named. Its arguments are checked against
 * the ticker map and the metric list, so a weak model (or the offline engine) cannot make the plan worse.
 */
export async function refinePlan(chat: ChatClient, question: string, plan: QuestionPlan, directory: CompanyDirectory): Promise<Refinement> {
  if (plan.companies.length && !plan.metricsDefaulted) return { plan, note: null };
  const reply = await chat.complete(
    [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: question },
    ],
    { tools: [ANALYZE_FILINGS_TOOL] },
  );
  const companies: CompanyRef[] = [];
  const metrics: Metric[] = [];
  for (const call of reply?.toolCalls ?? []) {
    if (call.function.name !== ANALYZE_FILINGS_TOOL.function.name) continue;
    let args: { ticker?: unknown; metrics?: unknown };
    try {
      args = JSON.parse(call.function.arguments) as typeof args;
    } catch {
      continue;
    }
    const company = typeof args.ticker === 'string' ? directory.ticker(args.ticker) : undefined;
    if (company && !companies.some((c) => c.cik === company.cik)) companies.push(company);
    if (Array.isArray(args.metrics))
      for (const m of args.metrics)
        if ((METRICS as readonly unknown[]).includes(m) && !metrics.includes(m as Metric)) metrics.push(m as Metric);
  }
  const refined: QuestionPlan = { ...plan };
  const notes: string[] = [];
  if (!plan.companies.length && companies.length) {
    refined.companies = companies.slice(0, 3);
    notes.push(`company ${refined.companies.map((c) => c.ticker).join(', ')}`);
  }
  if (plan.metricsDefaulted && metrics.length) {
    refined.metrics = metrics;
    refined.metricsDefaulted = false;
    notes.push(`figures ${metrics.join(', ')}`);
  }
  return { plan: refined, note: notes.length ? `The language model identified the ${notes.join(' and the ')}.` : null };
}
