import { Hono } from 'hono';
import { serveAgents } from '../../../lib/agent/index.ts';
import { notFound, onError } from '../../../lib/http/errors.ts';
import { healthBody } from '../../../lib/http/health.ts';
import { routerAgent, routerIn } from './agent.ts';
import { clientCors } from '../../../lib/http/cors.ts';
import { speaksSpec } from './error-dialect.ts';
import { getResponseRoute } from './routes/get-response.ts';
import { requestStatusRoute } from './routes/request-status.ts';
import { sendRequestRoute } from './routes/send-request.ts';

export { ReplayLedger } from '../../../lib/agent/index.ts';
export { AnswerSlots } from './answer-slots.ts';
export { GlobalSlot } from './global-slot.ts';

// Any request, queue batch or cron event starts the agent: registration (with backoff) and its refresh.
const agents = serveAgents([routerAgent]);

const app = new Hono<{ Bindings: RouterEnv }>();
app.use('*', agents.start);
app.get('/health', (c) => c.json(healthBody('router', { address: routerIn(c).address })));
app.use(
  '/api/*',
  clientCors<RouterEnv>((env) => env.CLIENT_ORIGIN),
);
app.use('/api/*', speaksSpec);
app.use('/webhook', speaksSpec);
app.route('/api/send-request', sendRequestRoute);
app.route('/api/get-response', getResponseRoute);
app.route('/api/requests', requestStatusRoute);
// POST /webhook: lib/agent verifies the envelope, then the router's handler files the answer (agent.ts).
app.route('/', routerAgent.app);
app.notFound(notFound);
app.onError(onError);

export default {
  fetch: app.fetch,
  queue: agents.queue,
  scheduled: agents.scheduled,
} satisfies ExportedHandler<RouterEnv>;
