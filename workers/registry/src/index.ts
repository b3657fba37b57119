import { env } from 'cloudflare:workers';
import { Hono } from 'hono';
import { clientCors } from '../../../lib/http/cors.ts';
import { notFound, onError } from '../../../lib/http/errors.ts';
import { healthBody } from '../../../lib/http/health.ts';
import { apiDocs } from '../../../lib/openapi/index.ts';
import { ownAgentRoutes } from './agents/own-routes.ts';
import { agentRoutes } from './agents/routes.ts';
import { almanacResolveRoutes } from './almanac/resolve.ts';
import { almanacRoutes } from './almanac/routes.ts';
import { featuredRoutes } from './featured/routes.ts';
import { forwardToHosting } from './hosting/forward.ts';
import { speaksDetail } from './http/detail.ts';
import type { RegistryApp } from './app.ts';
import { REGISTRY_API_INFO, REGISTRY_ROUTES } from './openapi/api-description.ts';
import { identityRoutes } from './identity/routes.ts';
import { interactionRoutes } from './interactions/routes.ts';
import { keyRoutes } from './keys/routes.ts';
import { mailboxRoutes } from './mailbox/routes.ts';
import { runScheduled } from './liveness/scheduled.ts';
import { probeMessage, type ProbeMessage } from './liveness/sweep.ts';
import { rateLimit } from './http/rate-limit.ts';
import { searchRoutes } from './search/routes.ts';
import { minSimilarity } from './search/semantic.ts';
import { requestShards } from './shards/request-shards.ts';

// A mistaken SEMANTIC_MIN_SIMILARITY fails the Worker's startup, and so its deploy, rather than every semantic search.
minSimilarity(env.SEMANTIC_MIN_SIMILARITY);

export { WordVectors } from './embeddings/word-vectors-service.ts';
export { KeyService } from './keys/key-service.ts';
export { Inbox } from './mailbox/inbox.ts';

const app = new Hono<RegistryApp>();
const identity = identityRoutes();

// Before the registry's own middleware: the hosting Worker answers these in full (CORS included).
app.all('/v1/hosting/*', speaksDetail, forwardToHosting);
app.use('*', clientCors());
app.use('*', rateLimit);
app.use('*', requestShards);
app.get('/health', (c) => c.json(healthBody('registry')));
app.route('/v1/keys', keyRoutes());
app.route('/v1/search', searchRoutes());
app.route('/v1/almanac', almanacRoutes());
app.route('/v2/almanac', almanacResolveRoutes());
app.route('/v1/featured-agents', featuredRoutes());
app.route('/v2/identity', identity.v2);
app.route('/v1/auth', identity.v1);
app.route('/v2/agents', interactionRoutes());
app.route('/v2/agents', mailboxRoutes());
app.route('/v2/agents', ownAgentRoutes());
app.route('/v2/agents', agentRoutes());
app.route('/v1/agents', agentRoutes());
app.route('/', apiDocs(app, REGISTRY_API_INFO, REGISTRY_ROUTES));
app.notFound(notFound);
app.onError(onError);

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(
      runScheduled(env, new Date(controller.scheduledTime)).then(
        (summary) => console.log('liveness probe', summary),
        (error: unknown) => console.error('liveness probe failed', error),
      ),
    );
  },
  /** The liveness sweep's queued shares: one message of at most 40 agents per invocation (wrangler.toml). */
  async queue(batch, env) {
    for (const message of batch.messages) {
      const summary = await probeMessage(env, message.body, new Date());
      console.log('liveness probe (queued)', summary);
      message.ack();
    }
  },
} satisfies ExportedHandler<RegistryEnv, ProbeMessage>;
