import { Hono } from 'hono';
import { Identity } from '../../../lib/identity/index.ts';
import { notFound, onError } from '../../../lib/http/errors.ts';
import { healthBody } from '../../../lib/http/health.ts';

export { ReplayLedger } from '../../../lib/envelope/replay-ledger.ts';

const app = new Hono<{ Bindings: RouterEnv }>();

app.get('/health', (c) => c.json(healthBody('router', { address: Identity.fromSeed(c.env.PRIMARY_AGENT_KEY, 0).address })));
app.notFound(notFound);
app.onError(onError);

export default app;
