import { Hono } from 'hono';
import { clientCors } from '../../../lib/http/cors.ts';
import { notFound, onError } from '../../../lib/http/errors.ts';
import { healthBody } from '../../../lib/http/health.ts';
import { apiDocs } from '../../../lib/openapi/index.ts';
import { type ChatApp, requireKey } from './auth/require-key.ts';
import { CHAT_API_INFO, CHAT_ROUTES } from './docs/api-description.ts';
import { completions } from './routes/completions.ts';
import { models } from './routes/models.ts';
import { usage } from './routes/usage.ts';

export { KeyRevocations } from './auth/key-revocations.ts';
export { KeyMeter } from './limits/key-meter.ts';

const app = new Hono<ChatApp>();

app.use('*', clientCors());
app.get('/health', (c) => c.json(healthBody('chat')));
app.use('/v1/*', requireKey);
app.route('/v1', completions);
app.route('/v1', models);
app.route('/v1', usage);
app.route('/', apiDocs(app, CHAT_API_INFO, CHAT_ROUTES));
app.notFound(notFound);
app.onError(onError);

export default app;
