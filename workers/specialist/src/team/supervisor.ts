import type { AnalysisItem } from '../../../../schemas/messages.ts';
import { CompanyDirectory } from '../analysis/company-directory.ts';
import { METRIC_INFO } from '../analysis/metrics.ts';
import { resolveFollowUp, type Subject, subjectOf } from '../analysis/follow-up.ts';
import { describePeriod, parseQuestion, type QuestionPlan } from '../analysis/question.ts';
import type { ChatClient } from '../language-model/chat-client.ts';
import { refinePlan } from '../language-model/planner.ts';
import { rewordAnswer } from '../language-model/wording.ts';
import type { EdgarClient } from '../edgar/client.ts';
import type { CompanyTickers } from '../edgar/schemas.ts';
import type { PhaseClock } from '../jobs/phase-clock.ts';
import { draftAnswer } from './answer.ts';
import { analyzeFilings, filingsItem, FILINGS_ANALYST } from './filings-analyst.ts';
import { SEARCH_WORKER, searchCurrentInformation, searchItem } from './search-worker.ts';

export const SUPERVISOR = 'Supervisor';

export interface Team {
  edgar: EdgarClient;
  /** The chat model; null when none is configured (the rules then do everything). */
  chat: ChatClient | null;
  tavilyApiKey: string | null;
  fetch: typeof fetch;
}

function planItem(question: string, plan: QuestionPlan, note: string | null, searchProvider: string): AnalysisItem {
  const companies = plan.companies.length ? plan.companies.map((c) => `${c.title} (${c.ticker})`).join(', ') : 'none recognised';
  const metrics = plan.metrics.map((m) => METRIC_INFO[m].label.toLowerCase()).join(', ');
  const lines = [
    `Question: ${question}`,
    `Companies: ${companies}.`,
    `Figures: ${metrics}${plan.metricsDefaulted ? ' (none named; the usual set)' : ''}.`,
    `Period: ${describePeriod(plan.period)}${plan.periodDefaulted ? ' (none named)' : ''}.`,
    `Steps: 1. ${SEARCH_WORKER}: ${searchProvider} for current information.`,
  ];
  if (plan.companies.length)
    lines.push(
      `2. ${FILINGS_ANALYST}: SEC EDGAR XBRL company facts, figures per fiscal year. 3. ${SUPERVISOR}: answer from those figures.`,
    );
  else lines.push(`2. ${SUPERVISOR}: ask which company is meant.`);
  if (note) lines.push(note);
  return { role: 'plan', name: SUPERVISOR, content: lines.join('\n') };
}

/** Per isolate: the directory of each ticker map the EDGAR client handed out (it keeps one while it is fresh). */
const directories = new WeakMap<CompanyTickers, CompanyDirectory>();

function directoryOf(tickers: CompanyTickers): CompanyDirectory {
  let directory = directories.get(tickers);
  if (!directory) {
    directory = new CompanyDirectory(tickers);
    directories.set(tickers, directory);
  }
  return directory;
}

/** A question as it reached the specialist, with what it knows of the conversation it belongs to. */
export interface AskedQuestion {
  question: string;
  /** The session's subject so far (the specialist's own memory of the session), when it has one. */
  subject: Subject | null;
  /** Earlier questions the sender carried for a session the specialist has not seen (oldest first). */
  earlier: string[];
}

/** The subject the earlier questions leave in play, each read against the ones before it. */
function subjectFrom(earlier: string[], directory: CompanyDirectory): Subject | null {
  let subject: Subject | null = null;
  for (const question of earlier) subject = subjectOf(resolveFollowUp(parseQuestion(question, directory), question, subject));
  return subject;
}

/**
 * The specialist's work on one question: plan (rules, read against the conversation's subject, gaps filled by
 * the model), search and filings analysis in parallel, then the answer from the analyst's figures. Each step
 * is one analysis item; `subject` is what the conversation is about now, for the next question. EDGAR failures
 * of the filings analyst propagate (the job is retried); the search worker's do not. The time spent waiting
 * for the chat model and for EDGAR goes to `clock`.
 */
export async function analyzeQuestion(
  team: Team,
  asked: AskedQuestion,
  clock: PhaseClock,
): Promise<{ items: AnalysisItem[]; subject: Subject }> {
  const { question } = asked;
  const directory = directoryOf(await clock.time('edgar', () => team.edgar.tickers()));
  const before = asked.subject ?? subjectFrom(asked.earlier, directory);
  const ruled = resolveFollowUp(parseQuestion(question, directory), question, before);
  const chat = team.chat;
  const refined = chat ? await clock.time('chat', () => refinePlan(chat, question, ruled, directory)) : { plan: ruled, note: null };
  const plan = refined.plan;
  const followUp = before ? 'Read with the conversation so far: what the question leaves out comes from the questions before it.' : null;
  const note = [followUp, refined.note].filter(Boolean).join(' ') || null;

  const [search, ...outcomes] = await clock.time('edgar', () =>
    Promise.all([
      searchCurrentInformation({ edgar: team.edgar, tavilyApiKey: team.tavilyApiKey, fetch: team.fetch }, question, plan.companies),
      ...plan.companies.map((company) => analyzeFilings(team.edgar, company, plan.metrics, plan.period)),
    ]),
  );

  const draft = draftAnswer(outcomes);
  const worded = chat && outcomes.some((o) => o.ok) ? await clock.time('chat', () => rewordAnswer(chat, question, draft.body)) : null;
  const answer = [worded ?? draft.body, draft.footer].filter(Boolean).join('\n\n');
  const items: AnalysisItem[] = [
    planItem(question, plan, note, search.provider),
    searchItem(search),
    ...outcomes.map(filingsItem),
    { role: 'answer', name: SUPERVISOR, content: answer },
  ];
  // A question that named no company leaves the subject as it was (nothing to carry forward from it).
  return { items, subject: plan.companies.length ? subjectOf(plan) : (before ?? subjectOf(plan)) };
}
