import { Hono } from 'hono';
import { clientCors } from '../../../lib/http/cors.ts';
import { healthBody } from '../../../lib/http/health.ts';
import { resealRetired } from './agents/reseal.ts';
import { agentRoutes } from './agents/routes.ts';
import type { HostingApp } from './app.ts';
import { requireHostingKey, requireLoader } from './auth/require-key.ts';
import { notFound, onError } from '../../../lib/http/errors.ts';
import { speaksHosting } from './http/detail.ts';
import { restRoutes } from './rest/routes.ts';
import { consumeOutbox } from './runtime/outbox.ts';
import { secretRoutes } from './secrets/routes.ts';
import { storageRoutes } from './storage/routes.ts';
import { submitRoutes } from './submit/routes.ts';

export { ReplayLedger } from '../../../lib/envelope/replay-ledger.ts';
export { GuestOutbound, HostApi } from './runtime/host-api.ts';
export { HostedAgent } from './runtime/hosted-agent.ts';

const app = new Hono<HostingApp>();

app.use('*', clientCors());
app.use('/v1/hosting/*', speaksHosting);
app.get('/health', (c) => c.json(healthBody('hosting', { loader: Boolean(c.env.LOADER) })));
app.use('/v1/hosting/*', requireLoader);
app.route('/v1/hosting/submit', submitRoutes());
app.route('/v1/hosting/rest', restRoutes());
app.use('/v1/hosting/*', requireHostingKey);
app.route('/v1/hosting/agents', agentRoutes());
app.route('/v1/hosting/agents', storageRoutes());
app.route('/v1/hosting', secretRoutes());
app.notFound(notFound);
app.onError(onError);

export default {
  fetch: app.fetch,
  queue: consumeOutbox,
  scheduled: async (_controller, env) => {
    const resealed = await resealRetired(env);
    if (resealed.seeds + resealed.secrets > 0)
      console.log(`re-sealed ${resealed.seeds} seeds and ${resealed.secrets} secrets under the current key`);
  },
} satisfies ExportedHandler<HostingEnv>;
