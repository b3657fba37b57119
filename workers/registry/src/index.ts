import { Hono } from 'hono';
import { notFound, onError } from '../../../lib/http/errors.ts';
import { healthBody } from '../../../lib/http/health.ts';

const app = new Hono<{ Bindings: RegistryEnv }>();

app.get('/health', (c) => c.json(healthBody('registry')));
app.notFound(notFound);
app.onError(onError);

export default app;
