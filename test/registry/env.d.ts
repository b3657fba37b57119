declare namespace Cloudflare {
  interface Env {
    /** The registry's D1 migrations, given to the test projects by vitest.config.ts. */
    TEST_MIGRATIONS: import('cloudflare:test').D1Migration[];
  }
}
