import { z } from 'zod';
import { chatText, defineAgent, model } from '../../../lib/agent/index.ts';
import { ApiError } from '../../../lib/http/api-error.ts';
import { analysisResultMessageSchema } from '../../../schemas/messages.ts';
import { MAX_QUESTION_CHARS } from '../../../schemas/question.ts';
import { enqueueAnalysis, type ReplyForm } from './jobs/analysis-job.ts';
import { SPECIALIST_README, SPECIALIST_TITLE } from './readme.ts';
import { isRegisteredSender } from './senders/registered-senders.ts';
import { senderBudget } from './senders/sender-budgets.ts';
import { senderRateLimiter } from './senders/sender-rate-limiter.ts';

/** Specialist → sender: the analysis, in the session of the request. */
export const AnalysisResult = model('AnalysisResult', analysisResultMessageSchema);

const OUTBOX_DEAD_LETTER_QUEUE = 'rendezvous-specialist-outbox-dlq';

/** The specialist as an agent: identity from FINANCIAL_AGENT_KEY, registered at FINANCIAL_WEBHOOK_URL, queued delivery. */
export const specialistAgent = defineAgent<SpecialistEnv>({
  name: 'specialist',
  title: SPECIALIST_TITLE,
  readme: SPECIALIST_README,
  // Users of the chat endpoint name it `@financial-analyst` (llm1-agentic).
  handle: 'financial-analyst',
  description: 'Financial analysis of US-listed companies from SEC EDGAR filings: revenue, margins, EPS, cash flow and growth.',
  settings: (env) => ({
    seed: env.FINANCIAL_AGENT_KEY,
    webhookUrl: env.FINANCIAL_WEBHOOK_URL,
    registryUrl: env.REGISTRY_URL,
    registryToken: env.REGISTRY_API_KEY || undefined,
    allowPrivateUrls: env.ALLOW_PRIVATE_URLS === 'true',
    replayLedger: env.REPLAY_LEDGER,
    outbox: env.SPECIALIST_OUTBOX,
    deadLetterQueue: OUTBOX_DEAD_LETTER_QUEUE,
  }),
});

/**
 * The specialist spends a chat key, EDGAR's rate budget and a paid web search: it works only for agents an
 * account registered (not for identities made for the purpose), and for each at most its per-minute budget.
 * Throws the refusal (a non-2xx, so the envelope's digest is released) when it may not.
 */
async function checkSender(env: SpecialistEnv, sender: string): Promise<void> {
  let registered: boolean;
  try {
    registered = await isRegisteredSender(env.REGISTRY_URL, sender);
  } catch (error) {
    console.error(`specialist: could not check sender ${sender} with the registry`, error);
    throw new ApiError({
      status: 503,
      message: 'the sender could not be checked; send again later',
      headers: { 'retry-after': '30' },
      cause: error,
    });
  }
  if (!registered) throw new ApiError({ status: 403, message: 'sender is not an agent registered under an account' });
  const wait = await senderRateLimiter(env.SENDER_RATE_LIMITER, sender).take(senderBudget(env, sender));
  if (wait > 0)
    throw new ApiError({
      status: 429,
      message: 'too many requests from this sender; send again later',
      headers: { 'retry-after': String(wait) },
    });
}

/**
 * POST /webhook (spec endpoint 7), after lib/agent verified the envelope (signature, target, expiry,
 * replay) and the sender checked (registered under an account, within its rate): any JSON object is taken,
 * whatever its schema digest (the Python SDKs send their own; a chat message goes to onChat below), and
 * `request` is checked here so that a missing one gets the spec's answer.
 */
specialistAgent.onPayload(z.looseObject({}), async (ctx, sender, payload) => {
  await checkSender(ctx.env, sender);
  const request = typeof payload.request === 'string' ? payload.request.trim() : '';
  if (!request) throw new ApiError({ status: 400, message: 'No query provided' });
  checkLength(request);
  await queueAnalysis(ctx.env, { sender, session: ctx.session, request, reply_as: 'analysis_result' });
  return { status: 'analysis_sent' };
});

/**
 * AgentChatProtocol: the same trust rule and the same analysis, asked as a chat message's text and answered
 * as a chat message in its session. The runtime acknowledges the message once this handler has taken it. A
 * message without text (a bare start- or end-session) is acknowledged and asks nothing, as uagents' chat
 * agents treat it.
 */
specialistAgent.onChat(async (ctx, sender, message) => {
  await checkSender(ctx.env, sender);
  const request = chatText(message).trim();
  if (!request) return { status: 'success' };
  checkLength(request);
  await queueAnalysis(ctx.env, { sender, session: ctx.session, request, reply_as: 'chat' });
  return { status: 'analysis_sent' };
});

/** A question longer than the router sends is refused (400): the analysis queue could not carry it either. */
function checkLength(request: string): void {
  if (request.length > MAX_QUESTION_CHARS)
    throw new ApiError({ status: 400, message: `the request is longer than ${MAX_QUESTION_CHARS.toLocaleString('en-US')} characters` });
}

/** The work is queued, so the sender is answered at once and the analysis survives a restart. */
async function queueAnalysis(env: SpecialistEnv, job: { sender: string; session: string; request: string; reply_as: ReplyForm }) {
  try {
    await enqueueAnalysis(env.ANALYSIS_QUEUE, { ...job, received_at: new Date().toISOString() });
  } catch (error) {
    console.error('specialist: could not queue the analysis', error);
    throw new ApiError({ status: 500, message: 'the analysis could not be queued', cause: error });
  }
}
