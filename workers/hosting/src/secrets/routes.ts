import { type Context, Hono } from 'hono';
import { secretCreateSchema, secretNameSchema, type Secret } from '../../../../schemas/hosting.ts';
import { findOwnAgent } from '../agents/store.ts';
import { seal } from '../agents/vault.ts';
import type { HostingApp } from '../app.ts';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { ValidationRefusal, validateHosting } from '../http/detail.ts';

/** A secret's value is never shown again after it is set. */
const MASK = '********';

interface SecretRow {
  address: string;
  name: string;
  timestamp: string;
}

const listed = (row: SecretRow): Secret & { address: string } => ({
  address: row.address,
  name: row.name,
  secret: MASK,
  timestamp: row.timestamp,
});

/**
 * Secrets, as Agentverse lays them out: `GET/POST /v1/hosting/secrets`, `GET /v1/hosting/{address}/secrets`,
 * `DELETE /v1/hosting/secrets/{address}/{name}`. Values are sealed at rest; hosted code reads them with
 * `ctx.secrets.get(name)`.
 */
export function secretRoutes() {
  const app = new Hono<HostingApp>();
  const own = (c: Context<HostingApp>, address: string) => findOwnAgent(c.env.DB, c.get('accountId'), address);

  app.get('/secrets', async (c) => {
    const { results } = await c.env.DB.prepare(
      'SELECT s.address, s.name, s.timestamp FROM hosted_secrets s JOIN hosted_agents a ON a.address = s.address WHERE a.account_id = ?1 ORDER BY s.address, s.name',
    )
      .bind(c.get('accountId'))
      .all<SecretRow>();
    return c.json({ secrets: results.map(listed) });
  });

  app.post('/secrets', validateHosting('json', secretCreateSchema), async (c) => {
    const input = c.req.valid('json');
    const row = await own(c, input.address);
    if (!row) throw new ApiError({ status: 404, message: 'agent not found' });
    const timestamp = new Date().toISOString();
    await c.env.DB.prepare('INSERT OR REPLACE INTO hosted_secrets (address, name, sealed_value, timestamp) VALUES (?1, ?2, ?3, ?4)')
      .bind(row.address, input.name, await seal(c.env, input.secret), timestamp)
      .run();
    return c.json(listed({ address: row.address, name: input.name, timestamp }));
  });

  app.get('/:address/secrets', async (c) => {
    const row = await own(c, c.req.param('address'));
    if (!row) throw new ApiError({ status: 404, message: 'agent not found' });
    const { results } = await c.env.DB.prepare('SELECT address, name, timestamp FROM hosted_secrets WHERE address = ?1 ORDER BY name')
      .bind(row.address)
      .all<SecretRow>();
    return c.json({ secrets: results.map(listed) });
  });

  app.delete('/secrets/:address/:name', async (c) => {
    const name = secretNameSchema.safeParse(c.req.param('name'));
    if (!name.success) throw new ValidationRefusal([{ loc: ['path', 'name'], msg: name.error.issues[0]!.message, type: 'value_error' }]);
    const row = await own(c, c.req.param('address'));
    if (!row) throw new ApiError({ status: 404, message: 'agent not found' });
    const result = await c.env.DB.prepare('DELETE FROM hosted_secrets WHERE address = ?1 AND name = ?2').bind(row.address, name.data).run();
    if (result.meta.changes === 0) throw new ApiError({ status: 404, message: `no secret ${name.data}` });
    return c.json({});
  });

  return app;
}
