import { applyD1Migrations, env } from 'cloudflare:test';
import type { D1Migration } from 'cloudflare:test';

/** The registry beside the chat Worker needs its schema; the test reaches its D1 as REGISTRY_DB. */
const testEnv = env as unknown as { REGISTRY_DB: D1Database; TEST_MIGRATIONS: D1Migration[] };
await applyD1Migrations(testEnv.REGISTRY_DB, testEnv.TEST_MIGRATIONS);
