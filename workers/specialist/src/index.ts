import { Hono } from 'hono';
import { serveAgents } from '../../../lib/agent/index.ts';
import { notFound, onError } from '../../../lib/http/errors.ts';
import { healthBody } from '../../../lib/http/health.ts';
import { AnalysisResult, specialistAgent } from './agent.ts';
import { teamFromEnv } from './config.ts';
import { ANALYSIS_QUEUE_NAME, consumeAnalysisBatch } from './jobs/analysis-job.ts';
import { analyzeQuestion } from './team/supervisor.ts';

export { ReplayLedger } from '../../../lib/agent/index.ts';
export { EdgarRateLimiter } from './edgar/rate-limiter.ts';
export { SenderRateLimiter } from './senders/sender-rate-limiter.ts';

// Any request, queue batch or cron event starts the agent: registration (with backoff) and its refresh.
const agents = serveAgents([specialistAgent]);

const app = new Hono<{ Bindings: SpecialistEnv }>();
app.use('*', agents.start);
// Hono types its execution context on its own; it is the Worker's.
app.get('/health', (c) => c.json(healthBody('specialist', { address: specialistAgent.address(c.env, c.executionCtx as unknown as ExecutionContext) })));
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
      analyze: (request) => analyzeQuestion(team, request),
      reply: (job, items) => agent.send(job.sender, AnalysisResult({ analysis_result: { analysis: items } }), { session: job.session }),
    });
  },
  scheduled: agents.scheduled,
} satisfies ExportedHandler<SpecialistEnv>;
