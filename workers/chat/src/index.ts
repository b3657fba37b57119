import { Hono } from 'hono';
import { notFound, onError } from '../../../lib/http/errors.ts';
import { healthBody } from '../../../lib/http/health.ts';
import { type ChatApp, requireKey } from './auth/require-key.ts';
import { completions } from './routes/completions.ts';
import { models } from './routes/models.ts';
import { usage } from './routes/usage.ts';

export { KeyMeter } from './limits/key-meter.ts';

const app = new Hono<ChatApp>();

app.get('/health', (c) => c.json(healthBody('chat')));
app.use('/v1/*', requireKey);
app.route('/v1', completions);
app.route('/v1', models);
app.route('/v1', usage);
app.notFound(notFound);
app.onError(onError);

export default app;
