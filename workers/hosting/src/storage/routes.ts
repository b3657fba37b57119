import { type Context, Hono } from 'hono';
import { putStorageSchema, type StorageItem, storageKeySchema } from '../../../../schemas/hosting.ts';
import { findOwnAgent } from '../agents/store.ts';
import type { HostingApp } from '../app.ts';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { validateHosting } from '../http/detail.ts';
import { outOfStorage } from '../quotas.ts';
import { hostedAgentStub } from '../runtime/hosted-agent.ts';

/** `/v1/hosting/agents/{address}/storage`: the same data the agent's code reads and writes as `ctx.storage`. */
export function storageRoutes() {
  const app = new Hono<HostingApp>();

  const own = (c: Context<HostingApp>) => findOwnAgent(c.env.DB, c.get('accountId'), c.req.param('address') ?? '');
  /** The key from the path, or null when it is too long to be one. */
  const keyOf = (c: Context<HostingApp>) => {
    const key = storageKeySchema.safeParse(c.req.param('key'));
    return key.success ? key.data : null;
  };

  app.get('/:address/storage', async (c) => {
    const row = await own(c);
    if (!row) throw new ApiError({ status: 404, message: 'agent not found' });
    return c.json(await hostedAgentStub(c.env, row.address).storagePage(c.req.query('cursor') ?? null));
  });

  app.get('/:address/storage/:key', async (c) => {
    const row = await own(c);
    if (!row) throw new ApiError({ status: 404, message: 'agent not found' });
    const key = keyOf(c);
    if (key === null) throw new ApiError({ status: 422, message: 'a storage key is 1 to 512 characters' });
    const value = await hostedAgentStub(c.env, row.address).storageGet(key);
    if (value === null) throw new ApiError({ status: 404, message: `no storage item ${JSON.stringify(key)}` });
    const item: StorageItem = { key, value };
    return c.json(item);
  });

  app.put('/:address/storage/:key', validateHosting('json', putStorageSchema), async (c) => {
    const row = await own(c);
    if (!row) throw new ApiError({ status: 404, message: 'agent not found' });
    const key = keyOf(c);
    if (key === null) throw new ApiError({ status: 422, message: 'a storage key is 1 to 512 characters' });
    const { value } = c.req.valid('json');
    const stored = await hostedAgentStub(c.env, row.address).storageSet(key, value);
    if (!stored.ok) throw outOfStorage(`${stored.detail}; nothing was changed`);
    const item: StorageItem = { key, value };
    return c.json(item);
  });

  app.delete('/:address/storage/:key', async (c) => {
    const row = await own(c);
    if (!row) throw new ApiError({ status: 404, message: 'agent not found' });
    const key = keyOf(c);
    if (key === null) throw new ApiError({ status: 422, message: 'a storage key is 1 to 512 characters' });
    if (!(await hostedAgentStub(c.env, row.address).storageDelete(key)))
      throw new ApiError({ status: 404, message: `no storage item ${JSON.stringify(key)}` });
    return c.json({});
  });

  return app;
}
