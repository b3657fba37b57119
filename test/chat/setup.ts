import { applyD1Migrations, env } from 'cloudflare:test';
import type { D1Migration } from 'cloudflare:test';
import { hashSecret, parseKeyToken } from '../../lib/api-keys/key-token.ts';

/**
 * The registry beside the chat Worker needs its schema (the test reaches its D1 as REGISTRY_DB), and the chat
 * agent's own key (CHAT_AGENT_REGISTRY_KEY, fixed in vitest.config.ts: read + write, an account of its own),
 * stored as the registry stores keys.
 */
const testEnv = env as unknown as { REGISTRY_DB: D1Database; TEST_MIGRATIONS: D1Migration[]; CHAT_AGENT_REGISTRY_KEY: string };
await applyD1Migrations(testEnv.REGISTRY_DB, testEnv.TEST_MIGRATIONS);
const key = parseKeyToken(testEnv.CHAT_AGENT_REGISTRY_KEY);
if (!key) throw new Error('CHAT_AGENT_REGISTRY_KEY of the chat project is not a registry key');
const now = new Date().toISOString();
await testEnv.REGISTRY_DB.batch([
  testEnv.REGISTRY_DB.prepare('INSERT OR IGNORE INTO accounts (id, name, created_at) VALUES (?, ?, ?)').bind(
    'chat-agent',
    'chat agent',
    now,
  ),
  testEnv.REGISTRY_DB.prepare(
    'INSERT OR IGNORE INTO api_keys (id, account_id, name, secret_hash, permissions, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  ).bind(key.id, 'chat-agent', 'chat agent', hashSecret(key.secret), JSON.stringify(['read', 'write']), now),
]);
