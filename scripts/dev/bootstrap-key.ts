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
  /** The account the key belongs to; a new account when absent. */
  accountId?: string;
  fetch?: typeof fetch;
}

/** Creates the key and tells its account, so that further keys can join the same account. */
export async function createDevKey(options: BootstrapKeyOptions): Promise<{ key: string; accountId: string }> {
  const doFetch = options.fetch ?? fetch;
  const response = await doFetch(`${options.registryUrl.replace(/\/+$/, '')}/v1/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: options.name ?? 'development',
      permissions: options.permissions ?? ['read', 'write', 'chat'],
      ...(options.accountId ? { account_id: options.accountId } : {}),
    }),
  });
  if (!response.ok) throw new Error(`creating a development key failed (${response.status}): ${await response.text()}`);
  const created = createdKeySchema.parse(await response.json());
  return { key: created.key, accountId: created.account_id };
}

export async function bootstrapDevKey(options: BootstrapKeyOptions): Promise<string> {
  return (await createDevKey(options)).key;
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
