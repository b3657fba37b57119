import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { defineConfig, defineProject } from 'vitest/config';

/** A test project that runs inside workerd with a Worker's own wrangler config and bindings (and any Workers it binds). */
function workerProject(
  name: string,
  configPath: string,
  bindings: Record<string, unknown> = {},
  workers: Record<string, unknown>[] = [],
  miniflare: Record<string, unknown> = {},
) {
  return defineProject({
    plugins: [
      cloudflareTest(async () => ({
        wrangler: { configPath },
        miniflare: {
          bindings: {
            ...bindings,
            TEST_MIGRATIONS: name === 'registry' || name === 'chat' ? await readD1Migrations('workers/registry/migrations') : [],
          },
          workers,
          ...miniflare,
        },
      })),
    ],
    test: { name, include: [`test/${name}/**/*.test.ts`] },
  });
}

/**
 * The chat Worker as the registry's CHAT_KEYS binding sees it in the registry project: it takes every key
 * revocation or change notice, except for keys whose id starts with `dead`, which it does not confirm (an undelivered notice).
 */
const CHAT_STAND_IN = {
  name: 'rendezvous-chat',
  modules: true,
  compatibilityDate: '2026-04-20',
  script: `import { WorkerEntrypoint } from 'cloudflare:workers';
export class KeyRevocations extends WorkerEntrypoint {
  async revoke(keyId) { return !keyId.startsWith('dead'); }
  async forget(keyId) { return !keyId.startsWith('dead'); }
}
export default { fetch: () => new Response('chat stand-in') };`,
};

/** The registry's mailbox (one Durable Object per inbox) where it runs as an auxiliary Worker, as its wrangler.toml binds it. */
const REGISTRY_DURABLE_OBJECTS = { MAILBOX: { className: 'Inbox', useSQLite: true } };

/** The registry's rate limit bindings where it runs as an auxiliary Worker (the tests' callers are all one client). */
const REGISTRY_RATE_LIMITS = {
  KEY_RATE_LIMIT: { simple: { limit: 1_000_000, period: 60 } },
  ANONYMOUS_RATE_LIMIT: { simple: { limit: 1_000_000, period: 60 } },
};

/** Bundles a Worker with wrangler (as deploy would) for use as an auxiliary worker in a test project. */
function bundleWorker(configPath: string, name: string): string {
  const outdir = path.resolve(`node_modules/.cache/rendezvous-test/${name}`);
  execFileSync('npx', ['wrangler', 'deploy', '--dry-run', '--outdir', outdir, '-c', configPath], {
    stdio: 'pipe',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
  });
  return `${outdir}/index.js`;
}

/**
 * chat: the chat Worker with the real registry beside it (keys over the REGISTRY RPC binding, search over
 * REGISTRY_API; the test reaches the registry's D1 as REGISTRY_DB) and a fake OpenAI-compatible upstream that
 * every outbound fetch of the chat Worker reaches (test/chat/fake-upstream).
 */
function chatProject() {
  const registryDb = '00000000-0000-0000-0000-000000000000';
  const models = {
    llm1: { provider: 'offline' },
    'llm1-mini': { provider: 'offline' },
    'llm1-tiny': { provider: 'offline', context_window: 64 },
    relay: { provider: 'openai', base_url: 'http://upstream.test/v1', model: 'fake-model', api_key_var: 'RELAY_API_KEY' },
    'relay-open': { provider: 'openai', base_url: 'http://upstream.test/v1', model: 'fake-model', think: 'open' },
    'llm1-edge': { provider: 'workers-ai', model: '@cf/meta/llama-3.1-8b-instruct-fast' },
    'llm1-agentic': { provider: 'offline', agentic: true },
    'relay-agentic': { provider: 'openai', base_url: 'http://upstream.test/v1', model: 'fake-model', agentic: true },
  };
  return defineProject({
    plugins: [
      cloudflareTest(async () => ({
        wrangler: { configPath: './workers/chat/wrangler.toml' },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: await readD1Migrations('workers/registry/migrations'),
            MODEL_MAP: JSON.stringify(models),
            RELAY_API_KEY: 'upstream-secret',
            DEFAULT_RPM: '30',
            DEFAULT_TPM: '20000',
            // The chat agent (llm1-agentic): its identity, a webhook the fake agents answer at, a short deadline.
            CHAT_AGENT_SEED: 'chat-agent-test-seed',
            // Its own registry key (an account of its own), which it searches with; test/chat/setup.ts stores it.
            CHAT_AGENT_REGISTRY_KEY,
            CHAT_AGENT_WEBHOOK_URL: 'http://chat.test/agent/webhook',
            AGENT_ANSWER_TIMEOUT_MS: '3000',
            // The fake agents' webhooks are on .test names, which the URL policy refuses unless private URLs are allowed (as npm start does).
            ALLOW_PRIVATE_URLS: 'true',
            // Quotas small enough to reach in a test (test/hosting/quotas.test.ts).
            HOSTED_AGENTS_PER_ACCOUNT: '5',
            HOSTED_STORAGE_KEYS_PER_AGENT: '20',
            HOSTED_STORAGE_BYTES_PER_AGENT: String(256 * 1024),
            HOSTED_LOG_BYTES_PER_AGENT: String(64 * 1024),
          },
          d1Databases: { REGISTRY_DB: registryDb },
          outboundService: 'fake-upstream',
          workers: [
            {
              name: 'rendezvous-registry',
              modules: true,
              scriptPath: bundleWorker('wrangler.toml', 'registry'),
              compatibilityDate: '2026-04-20',
              d1Databases: { DB: registryDb },
              bindings: { ADMIN_TOKEN: 'test-admin-token', ALLOW_PRIVATE_URLS: 'true' },
              ratelimits: REGISTRY_RATE_LIMITS,
              durableObjects: REGISTRY_DURABLE_OBJECTS,
              // Key deletions reach the chat Worker under test (the pool names it after the project).
              serviceBindings: { CHAT_KEYS: { name: 'vitest-pool-workers-runner-chat', entrypoint: 'KeyRevocations' } },
            },
            {
              name: 'fake-upstream',
              modules: true,
              scriptPath: bundleWorker('test/chat/fake-upstream/wrangler.toml', 'fake-upstream'),
              compatibilityDate: '2026-04-20',
            },
          ],
        },
      })),
    ],
    test: { name: 'chat', include: ['test/chat/**/*.test.ts'], setupFiles: ['./test/chat/setup.ts'] },
  });
}

/**
 * agent-runtime: the lib/agent fixture (test/agent-runtime) with the real registry beside it, which its agents
 * register in, resolve each other through and report interactions to (the test reaches its D1 as REGISTRY_DB).
 */
function agentRuntimeProject() {
  const registryDb = '00000000-0000-0000-0000-0000000000a1';
  return defineProject({
    plugins: [
      cloudflareTest(async () => ({
        wrangler: { configPath: './test/agent-runtime/wrangler.toml' },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: await readD1Migrations('workers/registry/migrations'),
            REGISTRY_API_KEY: AGENT_RUNTIME_REGISTRY_KEY,
          },
          d1Databases: { REGISTRY_DB: registryDb },
          workers: [
            {
              name: 'rendezvous-registry',
              modules: true,
              scriptPath: bundleWorker('wrangler.toml', 'registry-for-agent-runtime'),
              compatibilityDate: '2026-04-20',
              d1Databases: { DB: registryDb },
              bindings: { ADMIN_TOKEN: 'test-admin-token', ALLOW_PRIVATE_URLS: 'true' },
              ratelimits: REGISTRY_RATE_LIMITS,
              durableObjects: REGISTRY_DURABLE_OBJECTS,
            },
          ],
        },
      })),
    ],
    test: {
      name: 'agent-runtime',
      include: ['test/agent-runtime/**/*.test.ts'],
      setupFiles: ['./test/agent-runtime/setup.ts'],
      testTimeout: 60_000,
    },
  });
}

/**
 * hosting: the hosting Worker (its guest SDK bundled first, as its wrangler build command does) with the real
 * registry beside it, which checks keys over RPC, takes hosted agents' registrations and forwards /v1/hosting
 * back to the Worker under test (the test reaches the registry's D1 as REGISTRY_DB).
 */
function hostingProject() {
  const registryDb = '00000000-0000-0000-0000-0000000000b1';
  execFileSync('node', ['workers/hosting/build-guest-sdk.mjs'], { stdio: 'pipe' });
  return defineProject({
    plugins: [
      cloudflareTest(async () => ({
        wrangler: { configPath: './workers/hosting/wrangler.toml' },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: await readD1Migrations('workers/hosting/migrations'),
            REGISTRY_MIGRATIONS: await readD1Migrations('workers/registry/migrations'),
            REGISTRY_API_KEY: HOSTING_REGISTRY_KEY,
            PUBLIC_URL: 'http://registry.example.com',
            REGISTRY_URL: 'http://registry.example.com',
            // As `npm start` runs it: private URLs allowed for the platform's own calls, never for hosted code's (issue 22).
            ALLOW_PRIVATE_URLS: 'true',
            // Quotas small enough to reach in a test (test/hosting/quotas.test.ts).
            HOSTED_AGENTS_PER_ACCOUNT: '5',
            HOSTED_STORAGE_KEYS_PER_AGENT: '20',
            HOSTED_STORAGE_BYTES_PER_AGENT: String(256 * 1024),
            HOSTED_LOG_BYTES_PER_AGENT: String(64 * 1024),
          },
          d1Databases: { REGISTRY_DB: registryDb },
          outboundService: HOSTING_INTERNET.name,
          workers: [
            HOSTING_INTERNET,
            {
              name: 'rendezvous-hosting-vault',
              modules: true,
              scriptPath: bundleWorker('workers/hosting-vault/wrangler.toml', 'hosting-vault'),
              compatibilityDate: '2026-04-20',
              bindings: { HOSTING_SEED_KEYS },
            },
            {
              name: 'rendezvous-registry',
              modules: true,
              scriptPath: bundleWorker('wrangler.toml', 'registry-for-hosting'),
              compatibilityDate: '2026-04-20',
              d1Databases: { DB: registryDb },
              bindings: { ADMIN_TOKEN: 'test-admin-token', ALLOW_PRIVATE_URLS: 'true' },
              ratelimits: REGISTRY_RATE_LIMITS,
              durableObjects: REGISTRY_DURABLE_OBJECTS,
              serviceBindings: { HOSTING: 'vitest-pool-workers-runner-hosting' },
            },
          ],
        },
      })),
    ],
    test: { name: 'hosting', include: ['test/hosting/**/*.test.ts'], setupFiles: ['./test/hosting/setup.ts'], testTimeout: 60_000 },
  });
}

/**
 * The internet as the hosting Worker's outbound fetches see it in the hosting project: public.example.com answers,
 * redirect.example.com redirects to loopback (with and without credentials), and every other host answers
 * `reached <host>`, as the stack's loopback services and inspectors answered the hostile review (issue 22).
 */
const HOSTING_INTERNET = {
  name: 'hosting-internet',
  modules: true,
  compatibilityDate: '2026-04-20',
  script: `const hops = {
  '/to-loopback': 'http://127.0.0.1:9335/json',
  '/to-credentials': 'http://admin:secret@public.example.com/',
  '/to-redirect': 'http://redirect.example.com/to-loopback',
  '/to-public': 'http://public.example.com/landed',
};
export default {
  fetch(request) {
    const url = new URL(request.url);
    if (url.hostname === 'public.example.com') return new Response('public ' + request.method + ' ' + url.pathname);
    if (url.hostname === 'redirect.example.com' && hops[url.pathname]) return new Response(null, { status: 302, headers: { location: hops[url.pathname] } });
    return new Response('reached ' + url.host);
  },
};`,
};

/**
 * The vault's sealing keys in the hosting project: k2 current, v1 retired (it opens text sealed before the vault;
 * test/hosting/vault.test.ts seals such text with v1's secret, as the hosting Worker used to). Never the hosting Worker's.
 */
const HOSTING_SEED_KEYS = 'k2:hosting-test-vault-secret-2,v1:hosting-test-vault-secret';

/** The platform key the hosting Worker registers hosted agents with; test/hosting/setup.ts stores it in the registry. */
const HOSTING_REGISTRY_KEY = 'rdv_b0b0b0b0b0b0b0b0_hosting-test-secret-00000000000000000000000';

/** The chat agent's own registry key in the chat project; test/chat/setup.ts stores it in the registry. */
const CHAT_AGENT_REGISTRY_KEY = 'rdv_c4a7c4a7c4a7c4a7_chat-agent-test-secret-00000000000000000000';

/** The registry key the agent-runtime fixture's agents use; test/agent-runtime/setup.ts stores it in the registry. */
const AGENT_RUNTIME_REGISTRY_KEY = 'rdv_a9e2a9e2a9e2a9e2_agent-runtime-test-secret-00000000000000000';

/** The hosting Worker as the registry's HOSTING binding sees it in the registry project. */
const HOSTING_STAND_IN = {
  name: 'rendezvous-hosting',
  modules: true,
  compatibilityDate: '2026-04-20',
  script: `export default { fetch: () => Response.json({ detail: 'hosting stand-in' }) };`,
};

export default defineConfig({
  test: {
    projects: [
      // Private URLs allowed, as in local development (scripts/stack). One key runs thousands of searches in seconds (search-fuzz): its limit is raised here; the anonymous one is as deployed.
      workerProject(
        'registry',
        './wrangler.toml',
        { ADMIN_TOKEN: 'test-admin-token', ALLOW_PRIVATE_URLS: 'true' },
        [CHAT_STAND_IN, HOSTING_STAND_IN],
        {
          ratelimits: {
            KEY_RATE_LIMIT: { simple: { limit: 1_000_000, period: 60 } },
            ANONYMOUS_RATE_LIMIT: { simple: { limit: 300, period: 60 } },
          },
          // Four agent shards beside the single database, for the sharded search's test (test/registry/shards.test.ts).
          d1Databases: { SHARD_0: 'shard-0', SHARD_1: 'shard-1', SHARD_2: 'shard-2', SHARD_3: 'shard-3' },
        },
      ),
      chatProject(),
      // DISCOVERY_CACHE_SECONDS 0: each test registers its own agents and must see them at once.
      workerProject('router', './workers/router/wrangler.toml', {
        ALLOW_PRIVATE_URLS: 'true',
        PRIMARY_AGENT_KEY: 'router-dev-seed',
        REGISTRY_API_KEY: 'test-registry-key',
        REGISTRY_URL: 'http://registry.test',
        DISCOVERY_CACHE_SECONDS: '0',
      }),
      // The router with its registry answer cached as deployed (the `router` project sees every search).
      workerProject('router-discovery-cache', './workers/router/wrangler.toml', {
        ALLOW_PRIVATE_URLS: 'true',
        PRIMARY_AGENT_KEY: 'router-dev-seed',
        REGISTRY_API_KEY: 'test-registry-key',
        REGISTRY_URL: 'http://registry.test',
        DISCOVERY_CACHE_SECONDS: '10',
      }),
      // The router with the spec's global slot turned on by its operator (LEGACY_GLOBAL_SLOT, off by default).
      workerProject('router-legacy-slot', './workers/router/wrangler.toml', {
        ALLOW_PRIVATE_URLS: 'true',
        PRIMARY_AGENT_KEY: 'router-dev-seed',
        REGISTRY_API_KEY: 'test-registry-key',
        REGISTRY_URL: 'http://registry.test',
        LEGACY_GLOBAL_SLOT: 'true',
        DISCOVERY_CACHE_SECONDS: '0',
      }),
      workerProject('specialist', './workers/specialist/wrangler.toml', {
        ALLOW_PRIVATE_URLS: 'true',
        FINANCIAL_AGENT_KEY: 'specialist-dev-seed',
        FINANCIAL_WEBHOOK_URL: 'http://specialist.test/webhook',
        REGISTRY_URL: 'http://registry.test',
        REGISTRY_API_KEY: 'test-registry-key',
        CHAT_URL: 'http://chat.test/v1',
        CHAT_API_KEY: 'test-chat-key',
        TAVILY_API_KEY: '',
        EDGAR_BASE_URL: 'http://edgar.test',
        EDGAR_TICKERS_URL: 'http://edgar.test/files/company_tickers.json',
        EDGAR_SEARCH_URL: 'http://efts.test/LATEST/search-index',
        // Small, so that the per-sender limit test reaches it quickly; above what any other test file sends.
        SENDER_REQUESTS_PER_MINUTE: '40',
        // Identity.fromSeed('budget test router', 0), with a budget of its own (test/specialist/sender-policy.test.ts).
        SENDER_BUDGETS: 'agent1qf70zses7lqz7u4k7f8ls8kdaf66ct8efgpasycg3gvjpaz4cqsnxk0lwsk:50',
      }),
      agentRuntimeProject(),
      hostingProject(),
      defineProject({ test: { name: 'node', include: ['test/node/**/*.test.ts'], environment: 'node' } }),
      defineProject({
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      }),
    ],
  },
});
