import type { CompanyRef } from './company-directory.ts';
import type { Metric } from './metrics.ts';
import type { PeriodRequest, QuestionPlan } from './question.ts';

/**
 * The subject of a conversation so far: the companies, the figures and the period in play. Figures and period
 * are kept only when someone named them (a default is not a subject), so a later question can still default.
 */
export interface Subject {
  companies: CompanyRef[];
  metrics: Metric[] | null;
  period: PeriodRequest | null;
}

const MAX_COMPANIES = 3;

/** "How does that compare with Apple?": a named company joins the subject's instead of replacing them. */
const COMPARING = /\b(?:compare[sd]?|comparison|versus|vs\.?|against|relative to|alongside|as well as|too|also)\b/i;

/**
 * The question's plan with what it leaves out taken from the conversation's subject: no company named means the
 * subject's companies (a comparison adds to them); no figure named means the subject's figures; no period named
 * means the subject's period. Without a subject the plan is the question's own.
 */
export function resolveFollowUp(plan: QuestionPlan, question: string, subject: Subject | null): QuestionPlan {
  if (!subject) return plan;
  const named = plan.companies;
  const companies = !named.length
    ? subject.companies
    : COMPARING.test(question)
      ? [...subject.companies, ...named.filter((company) => !subject.companies.some((known) => known.cik === company.cik))].slice(
          0,
          MAX_COMPANIES,
        )
      : named;
  const metrics = plan.metricsDefaulted && subject.metrics ? subject.metrics : plan.metrics;
  const period = plan.periodDefaulted && subject.period ? subject.period : plan.period;
  return {
    companies,
    metrics,
    metricsDefaulted: plan.metricsDefaulted && !subject.metrics,
    period,
    periodDefaulted: plan.periodDefaulted && !subject.period,
  };
}

/** What a resolved plan leaves in play for the next question. */
export function subjectOf(plan: QuestionPlan): Subject {
  return {
    companies: plan.companies,
    metrics: plan.metricsDefaulted ? null : plan.metrics,
    period: plan.periodDefaulted ? null : plan.period,
  };
}
