import type { Context } from 'hono';
import type { RegistryApp } from '../app.ts';
import { detail } from '../http/detail.ts';

/**
 * `/v1/hosting/…` belongs to the hosting Worker: forwarded over the HOSTING service binding as is (it does
 * its own auth and CORS), so {base_url} serves the spec's hosting paths. Without the binding: 501.
 */
export async function forwardToHosting(c: Context<RegistryApp>): Promise<Response> {
  const hosting = c.env.HOSTING;
  if (!hosting) return detail(c, 501, 'hosting is not enabled on this deployment (the registry has no HOSTING service binding)');
  try {
    return await hosting.fetch(c.req.raw);
  } catch (error) {
    console.error('hosting Worker unreachable', error);
    return detail(c, 503, 'the hosting Worker is unreachable; try again shortly');
  }
}
