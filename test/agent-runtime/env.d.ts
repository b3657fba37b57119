declare namespace Cloudflare {
  interface Env {
    /** The registry's D1 migrations and its database, given to this test project by vitest.config.ts. */
    TEST_MIGRATIONS: import('cloudflare:test').D1Migration[];
    REGISTRY_DB: D1Database;
  }
}
