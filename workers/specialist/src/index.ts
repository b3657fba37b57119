import { Hono } from 'hono';
import { Identity } from '../../../lib/identity/index.ts';
import { notFound, onError } from '../../../lib/http/errors.ts';
import { healthBody } from '../../../lib/http/health.ts';

export { ReplayLedger } from '../../../lib/envelope/replay-ledger.ts';

const app = new Hono<{ Bindings: SpecialistEnv }>();

app.get('/health', (c) => c.json(healthBody('specialist', { address: Identity.fromSeed(c.env.FINANCIAL_AGENT_KEY, 0).address })));
app.notFound(notFound);
app.onError(onError);

export default app;
