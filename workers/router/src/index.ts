import { Hono } from 'hono';
import { notFound, onError } from '../../../lib/http/errors.ts';
import { healthBody } from '../../../lib/http/health.ts';
import { clientCors } from './cors.ts';
import { registerOnFirstRequest } from './registration.ts';
import { routerIdentity } from './router-identity.ts';
import { getResponseRoute } from './routes/get-response.ts';
import { requestStatusRoute } from './routes/request-status.ts';
import { sendRequestRoute } from './routes/send-request.ts';
import { webhookRoute } from './routes/webhook.ts';

export { ReplayLedger } from '../../../lib/envelope/replay-ledger.ts';
export { AnswerSlot } from './answer-slot.ts';
export { GlobalSlot } from './global-slot.ts';

const app = new Hono<{ Bindings: RouterEnv }>();

app.use('*', registerOnFirstRequest);
app.get('/health', (c) => c.json(healthBody('router', { address: routerIdentity(c.env).address })));
app.use('/api/*', clientCors);
app.route('/api/send-request', sendRequestRoute);
app.route('/api/get-response', getResponseRoute);
app.route('/api/requests', requestStatusRoute);
app.route('/webhook', webhookRoute);
app.notFound(notFound);
app.onError(onError);

export default app;
