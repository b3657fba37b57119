import { createdKeySchema, type CreateKeyRequest } from '../../schemas/keys.ts';

/** Creates the local agents' API key (search, registration, chat) with the registry's admin token. */
export async function createDevKey(registryUrl: string, adminToken: string): Promise<string> {
  const request: CreateKeyRequest = { name: 'local dev agents', permissions: ['read', 'write', 'chat'], account_name: 'local development' };
  const response = await fetch(`${registryUrl}/v1/keys`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(request),
  });
  if (response.status !== 201) throw new Error(`creating the dev key failed: ${response.status} ${await response.text()}`);
  return createdKeySchema.parse(await response.json()).key;
}
