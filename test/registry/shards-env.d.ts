declare namespace Cloudflare {
  interface Env {
    /** Four local agent shards (vitest.config.ts): the sharded fan-out's test (shards.test.ts). */
    SHARD_0: D1Database;
    SHARD_1: D1Database;
    SHARD_2: D1Database;
    SHARD_3: D1Database;
  }
}
