import { applyD1Migrations, env } from 'cloudflare:test';
import { hashSecret, parseKeyToken } from '../../lib/api-keys/key-token.ts';

/**
 * Both schemas, and the platform key the hosting Worker registers hosted agents with (REGISTRY_API_KEY,
 * fixed in vitest.config.ts), stored as the registry stores keys.
 */
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await applyD1Migrations(env.REGISTRY_DB, env.REGISTRY_MIGRATIONS);
const key = parseKeyToken(env.REGISTRY_API_KEY);
if (!key) throw new Error('REGISTRY_API_KEY of the hosting project is not a registry key');
const now = new Date().toISOString();
await env.REGISTRY_DB.batch([
  env.REGISTRY_DB.prepare('INSERT OR IGNORE INTO accounts (id, name, created_at) VALUES (?, ?, ?)').bind(
    'hosting-platform',
    'hosting platform',
    now,
  ),
  env.REGISTRY_DB.prepare(
    'INSERT OR IGNORE INTO api_keys (id, account_id, name, secret_hash, permissions, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  ).bind(key.id, 'hosting-platform', 'hosted agents', hashSecret(key.secret), JSON.stringify(['read', 'write']), now),
]);
