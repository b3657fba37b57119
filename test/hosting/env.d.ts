declare namespace Cloudflare {
  interface Env {
    /** The hosting and registry D1 migrations, and the registry's database, given by vitest.config.ts. */
    TEST_MIGRATIONS: import('cloudflare:test').D1Migration[];
    REGISTRY_MIGRATIONS: import('cloudflare:test').D1Migration[];
    REGISTRY_DB: D1Database;
  }
}
