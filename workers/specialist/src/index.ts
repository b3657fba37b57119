import { Hono } from 'hono';
import { readEarlierTurns, serveAgents } from '../../../lib/agent/index.ts';
import { notFound, onError } from '../../../lib/http/errors.ts';
import { healthBody } from '../../../lib/http/health.ts';
import { specialistAgent } from './agent.ts';
import { teamFromEnv } from './config.ts';
import { speaksSpec } from './error-dialect.ts';
import { ANALYSIS_QUEUE_NAME, consumeAnalysisBatch } from './jobs/analysis-job.ts';
import { replyMessage } from './replies/reply-message.ts';
import { conversationSubject } from './conversation/conversation-subject.ts';
import { analyzeQuestion } from './team/supervisor.ts';

export { ReplayLedger } from '../../../lib/agent/index.ts';
export { ConversationSubject } from './conversation/conversation-subject.ts';
export { EdgarRateLimiter } from './edgar/rate-limiter.ts';
export { SenderRateLimiter } from './senders/sender-rate-limiter.ts';

/** How long a direct reply may take before the answer goes to the outbox queue instead. */
const DIRECT_REPLY_TIMEOUT_MS = 5_000;

// Any request, queue batch or cron event starts the agent: registration (with backoff) and its refresh.
const agents = serveAgents([specialistAgent]);

const app = new Hono<{ Bindings: SpecialistEnv }>();
app.use('*', agents.start);
app.use('/webhook', speaksSpec);
app.get('/health', (c) => c.json(healthBody('specialist', { address: specialistAgent.address(c.env, c.executionCtx) })));
// POST /webhook: lib/agent verifies the envelope, then the specialist's handler queues the analysis (agent.ts).
app.route('/', specialistAgent.app);
app.notFound(notFound);
app.onError(onError);

export default {
  fetch: app.fetch,
  queue: async (batch, env, ctx) => {
    if (batch.queue !== ANALYSIS_QUEUE_NAME) return agents.queue!(batch, env, ctx);
    const team = teamFromEnv(env);
    const agent = specialistAgent.context(env, ctx);
    await consumeAnalysisBatch(batch, {
      // Each sender's session keeps its subject, so a follow-up means what it means in the conversation.
      analyze: async (job, clock) => {
        const conversation = conversationSubject(env, job.sender, job.session);
        const { question, earlier } = readEarlierTurns(job.request);
        const { items, subject } = await analyzeQuestion(team, { question, earlier, subject: await conversation.recall() }, clock);
        await conversation.remember(subject);
        return items;
      },
      reply: async (job, items) => {
        const message = replyMessage(job.reply_as, items);
        // Straight to the asker while it answers (a queue hop less for a waiting user); else the outbox,
        // whose retries carry the answer across a restart of the asker.
        const direct = await agent.deliver(job.sender, message, { session: job.session, timeout: DIRECT_REPLY_TIMEOUT_MS });
        if (direct.status !== 'delivered') await agent.send(job.sender, message, { session: job.session });
      },
    });
  },
  scheduled: agents.scheduled,
} satisfies ExportedHandler<SpecialistEnv>;
