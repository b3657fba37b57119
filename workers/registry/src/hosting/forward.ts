import type { Context } from 'hono';
import { ApiError } from '../../../../lib/http/api-error.ts';
import type { RegistryApp } from '../app.ts';

/**
 * `/v1/hosting/…` belongs to the hosting Worker: forwarded over the HOSTING service binding as is (it does
 * its own auth and CORS), so {base_url} serves the spec's hosting paths. Without the binding: 501. Mounted
 * behind `speaksDetail`: the hosting API answers errors as `{detail}`, like Agentverse's.
 */
export async function forwardToHosting(c: Context<RegistryApp>): Promise<Response> {
  const hosting = c.env.HOSTING;
  if (!hosting) {
    throw new ApiError({ status: 501, message: 'hosting is not enabled on this deployment (the registry has no HOSTING service binding)' });
  }
  try {
    return await hosting.fetch(c.req.raw);
  } catch (error) {
    throw new ApiError({ status: 503, message: 'the hosting Worker is unreachable; try again shortly', cause: error });
  }
}
