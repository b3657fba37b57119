import { Hono } from 'hono';
import { notFound, onError } from '../../../lib/http/errors.ts';
import { healthBody } from '../../../lib/http/health.ts';
import type { RegistryApp } from './app.ts';
import { keyRoutes } from './keys/routes.ts';
import { searchRoutes } from './search/routes.ts';

export { KeyService } from './keys/key-service.ts';

const app = new Hono<RegistryApp>();

app.get('/health', (c) => c.json(healthBody('registry')));
app.route('/v1/keys', keyRoutes());
app.route('/v1/search', searchRoutes());
app.notFound(notFound);
app.onError(onError);

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<RegistryEnv>;
