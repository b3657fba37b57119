import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { defineConfig, defineProject } from 'vitest/config';

/** A test project that runs inside workerd with a Worker's own wrangler config and bindings. */
function workerProject(name: string, configPath: string, bindings: Record<string, unknown> = {}) {
  return defineProject({
    plugins: [
      cloudflareTest(async () => ({
        wrangler: { configPath },
        miniflare: {
          bindings: {
            ...bindings,
            TEST_MIGRATIONS: name === 'registry' || name === 'chat' ? await readD1Migrations('workers/registry/migrations') : [],
          },
        },
      })),
    ],
    test: { name, include: [`test/${name}/**/*.test.ts`] },
  });
}

export default defineConfig({
  test: {
    projects: [
      workerProject('registry', './wrangler.toml', { ADMIN_TOKEN: 'test-admin-token' }),
      workerProject('chat', './workers/chat/wrangler.toml'),
      workerProject('router', './workers/router/wrangler.toml', { PRIMARY_AGENT_KEY: 'router-dev-seed' }),
      workerProject('specialist', './workers/specialist/wrangler.toml', { FINANCIAL_AGENT_KEY: 'specialist-dev-seed' }),
      defineProject({ test: { name: 'node', include: ['test/node/**/*.test.ts'], environment: 'node' } }),
      defineProject({ test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], environment: 'node', testTimeout: 120_000, hookTimeout: 180_000, fileParallelism: false } }),
    ],
  },
});
