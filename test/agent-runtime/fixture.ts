import { Hono } from 'hono';
import { serveAgents } from '../../lib/agent/index.ts';
import { notFound, onError } from '../../lib/http/errors.ts';
import { agents, loopback, observer } from './fixture/agents.ts';
import { control } from './fixture/control.ts';
import './fixture/routes.ts';

export { ReplayLedger } from '../../lib/agent/index.ts';
export { Observer } from './fixture/observer.ts';

/**
 * The lib/agent test fixture: alice, bob and carol under /<name>/ (webhook at /<name>/webhook, alice's
 * REST routes beside it), the control surface under /test/.
 */
const served = serveAgents(Object.values(agents));
const app = new Hono<{ Bindings: AgentRuntimeEnv }>();
app.use('*', served.start);
app.route('/test', control);
for (const [name, agent] of Object.entries(agents)) {
  // A receiver that is "down" answers 503 before its runtime sees the envelope.
  app.post(`/${name}/webhook`, async (c, next) => {
    if (await observer(c.env).takeFailure(name, 'down'))
      return c.json({ error: { message: `${name} is down`, type: 'unavailable', param: null, code: null } }, 503);
    await next();
  });
  app.route(`/${name}`, agent.app);
}
app.notFound(notFound);
app.onError(onError);
loopback.app = app;

export default { fetch: app.fetch, queue: served.queue, scheduled: served.scheduled } satisfies ExportedHandler<AgentRuntimeEnv>;
