import { Hono } from 'hono';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { validate } from '../../../../lib/http/validate.ts';
import type { FeaturedAgent, FeaturedAgentList } from '../../../../schemas/featured.ts';
import { addressParamSchema } from '../../../../schemas/registry.ts';
import type { RegistryApp } from '../app.ts';
import { requireAdmin } from '../keys/caller.ts';

/**
 * `/v1/featured-agents`: the operator features agents (admin token). The flag is an agents column; the
 * search triggers carry it into what browsing and ranking read, so it takes effect at once.
 */
export function featuredRoutes() {
  const app = new Hono<RegistryApp>();
  app.use('*', requireAdmin);

  app.get('/', async (c) => {
    const pages = await Promise.all(
      c.var
        .shards()
        .all.map((db) =>
          db
            .prepare('SELECT address, name FROM agents WHERE featured = 1 AND account_id IS NOT NULL ORDER BY name, address')
            .all<{ address: string; name: string }>(),
        ),
    );
    // The SQL's order (name, then address) across shards: SQLite compares text bytewise, as code units do here.
    const byName = (a: { address: string; name: string }, b: { address: string; name: string }) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : a.address < b.address ? -1 : a.address > b.address ? 1 : 0;
    const results = pages.flatMap((page) => page.results).sort(byName);
    const body: FeaturedAgentList = { agents: results.map((row) => ({ address: row.address, name: row.name, featured: true })) };
    return c.json(body);
  });

  for (const [method, featured] of [
    ['put', true],
    ['delete', false],
  ] as const) {
    app[method]('/:address', validate('param', addressParamSchema), async (c) => {
      const { address } = c.req.valid('param');
      // Only registered agents (an almanac-only record has no account) can be featured.
      const row = await c.var
        .shards()
        .owner(address)
        .prepare('UPDATE agents SET featured = ?1 WHERE address = ?2 AND account_id IS NOT NULL RETURNING address, name')
        .bind(featured ? 1 : 0, address)
        .first<{ address: string; name: string }>();
      if (!row)
        throw new ApiError({
          status: 404,
          message: `no registered agent ${address}`,
          type: 'not_found',
          param: 'address',
          code: 'unknown_agent',
        });
      const body: FeaturedAgent = { address: row.address, name: row.name, featured };
      return c.json(body);
    });
  }
  return app;
}
