import { pathToFileURL } from 'node:url';
import { createdKeySchema, type Permission } from '../../schemas/keys.ts';

/**
 * Creates a development API key (read + write + chat unless told) with the registry's ADMIN_TOKEN. The start
 * command calls it once per agent (read + write) and writes each key into that agent's .dev.vars as REGISTRY_API_KEY.
 * As a script: `REGISTRY_URL=… ADMIN_TOKEN=… npx tsx scripts/dev/bootstrap-key.ts` prints the key.
 */
export interface BootstrapKeyOptions {
  registryUrl: string;
  adminToken: string;
  name?: string;
  permissions?: Permission[];
  fetch?: typeof fetch;
}

export async function bootstrapDevKey(options: BootstrapKeyOptions): Promise<string> {
  const doFetch = options.fetch ?? fetch;
  const response = await doFetch(`${options.registryUrl.replace(/\/+$/, '')}/v1/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: options.name ?? 'development', permissions: options.permissions ?? ['read', 'write', 'chat'] }),
  });
  if (!response.ok) throw new Error(`creating a development key failed (${response.status}): ${await response.text()}`);
  return createdKeySchema.parse(await response.json()).key;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const registryUrl = process.env.REGISTRY_URL ?? 'http://localhost:8787';
  const adminToken = process.env.ADMIN_TOKEN;
  if (!adminToken) {
    console.error('set ADMIN_TOKEN (the registry secret in .dev.vars)');
    process.exit(1);
  }
  console.log(await bootstrapDevKey({ registryUrl, adminToken }));
}
