import { createdKeySchema, type CreateKeyRequest } from '../../schemas/keys.ts';

/**
 * The specialist's chat key. Its own limits are high because the offline demo and its load tests (100
 * concurrent users, each several completions) would otherwise meet the chat Worker's default per-key rate.
 */
export async function createChatKey(registryUrl: string, adminToken: string): Promise<string> {
  const request: CreateKeyRequest = {
    name: 'local specialist chat',
    permissions: ['chat'],
    limits: { requests_per_minute: 1_000_000, tokens_per_minute: 1_000_000_000 },
  };
  const response = await fetch(`${registryUrl}/v1/keys`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(request),
  });
  if (response.status !== 201) throw new Error(`creating the chat key failed (${response.status}): ${await response.text()}`);
  return createdKeySchema.parse(await response.json()).key;
}
