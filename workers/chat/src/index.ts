import { Hono } from 'hono';
import { serveAgents } from '../../../lib/agent/index.ts';
import { clientCors } from '../../../lib/http/cors.ts';
import { notFound, onError } from '../../../lib/http/errors.ts';
import { healthBody } from '../../../lib/http/health.ts';
import { apiDocs } from '../../../lib/openapi/index.ts';
import { chatAgent } from './agentic/chat-agent.ts';
import { type ChatApp, requireKey } from './auth/require-key.ts';
import { CHAT_API_INFO, CHAT_ROUTES } from './openapi/api-description.ts';
import { completions } from './routes/completions.ts';
import { embeddings } from './routes/embeddings.ts';
import { models } from './routes/models.ts';
import { requestId } from './request-id.ts';
import { responses } from './routes/responses.ts';
import { usage } from './routes/usage.ts';
import type { ChatBindings } from './env.ts';

export { ReplayLedger } from '../../../lib/agent/index.ts';
export { AgentSession } from './agentic/agent-session.ts';
export { KeyRevocations } from './auth/key-revocations.ts';
export { KeyMeter } from './limits/key-meter.ts';
export { ResponseStore } from './responses/response-store.ts';

// The chat Worker is also an agent (llm1-agentic) once it has an identity (CHAT_AGENT_SEED): any request, queue
// batch or cron event then starts it (registration). Without one it serves every other model as before.
const agents = serveAgents([chatAgent]);
const hasAgent = (env: ChatBindings) => Boolean(env.CHAT_AGENT_SEED);

const app = new Hono<ChatApp>();

app.use('*', requestId);
app.use('*', async (c, next) => {
  if (hasAgent(c.env)) chatAgent.started(chatAgent.bind(c.env, c.executionCtx));
  await next();
});
app.use('*', clientCors());
app.get('/health', (c) => c.json(healthBody('chat', hasAgent(c.env) ? { address: chatAgent.address(c.env, c.executionCtx) } : {})));
app.use('/v1/*', requireKey);
app.route('/v1', completions);
app.route('/v1', models);
app.route('/v1', embeddings);
app.route('/v1', responses);
app.route('/v1', usage);
// POST /agent/webhook: agents' acknowledgements and answers, verified by lib/agent, filed into their conversation.
app.route('/agent', chatAgent.app);
app.route('/', apiDocs(app, CHAT_API_INFO, CHAT_ROUTES));
app.notFound(notFound);
app.onError(onError);

export default {
  fetch: app.fetch,
  queue: agents.queue,
  scheduled: async (controller, env, ctx) => {
    if (hasAgent(env)) await agents.scheduled?.(controller, env, ctx);
  },
} satisfies ExportedHandler<ChatBindings>;
