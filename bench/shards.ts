import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { newKeyToken } from '../lib/api-keys/key-token.ts';
import { generateAgents } from '../test/registry/fixtures/corpus/generate.ts';
import { AGENT_COLUMNS, registrationColumns } from '../test/registry/fixtures/corpus/registration-columns.ts';
import { shardOf } from '../workers/registry/src/shards/shard-key.ts';
import { startMiniflareStack } from './miniflare-stack.ts';
import { progressBar } from './scale/progress.ts';
import { INTERACTIONS_PER_AGENT_RANK } from './scale/seed-stream.ts';
import { indexSemanticWithProgress } from './scale/semantic-seed.ts';
import { percentile, timed } from './scale/stats.ts';

/**
 * The fan-out's latency (docs/scale.md "Shards", docs/decisions/0190): the same generated corpus in one D1
 * database and over four shards (home on shard 0, AGENT_SHARDS naming the other three), two registry Workers in
 * one workerd (Miniflare), timed in the same run, each request sent to both in turn so the machine's load
 * falls on both alike. Search (text, a common word, browsing by a sort, a filter) fans out over every shard;
 * almanac lookup and agent detail go to the owning shard.
 *
 * Run: npm run bench:shards -- [--agents 100000] [--rounds 5]
 */
const { values: args } = parseArgs({
  options: {
    agents: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '5' },
    owners: { type: 'string', default: '100' },
  },
});
const AGENTS = Number(args.agents);
const ROUNDS = Number(args.rounds);
const OWNERS = Number(args.owners);
const PORT = Number(process.env.PORT ?? 9797);
const ROOT = path.resolve(import.meta.dirname, '..');
const SHARD_COUNT = 4;

/** The registry's wrangler.toml with shards 1–3 bound, another name, and no queue (one consumer per queue). */
function shardedConfig(): string {
  const dir = path.join(ROOT, 'node_modules/.cache/rendezvous-bench');
  mkdirSync(dir, { recursive: true });
  const up = path.relative(dir, ROOT);
  const base = readFileSync(path.join(ROOT, 'wrangler.toml'), 'utf8').split('\n[env.')[0]!;
  const toml = base
    .replace('name = "rendezvous-registry"', 'name = "rendezvous-registry-sharded"')
    .replace('main = "workers/registry/src/index.ts"', `main = "${up}/workers/registry/src/index.ts"`)
    .replace(/database_id = "[^"]*"/, 'database_id = "bench-shard-0"')
    .replace(/migrations_dir = "workers\/registry\/migrations"/, `migrations_dir = "${up}/workers/registry/migrations"`)
    .replace(/\[\[queues\.producers\]\][\s\S]*?max_retries = 1\n/, '');
  const shards = [1, 2, 3]
    .map(
      (i) =>
        `\n[[d1_databases]]\nbinding = "DB_SHARD_${i}"\ndatabase_name = "bench-shard-${i}"\ndatabase_id = "bench-shard-${i}"\nmigrations_dir = "${up}/workers/registry/migrations"\n`,
    )
    .join('');
  const file = path.join(dir, 'registry-sharded.toml');
  writeFileSync(file, toml.replace('\n[[services]]', `${shards}\n[[services]]`));
  return path.relative(ROOT, file);
}

const INSERT = `INSERT INTO agents (${AGENT_COLUMNS.join(', ')}) VALUES (${AGENT_COLUMNS.map(() => '?').join(', ')})`;
const BINDINGS = { single: ['DB'], sharded: ['DB', 'DB_SHARD_1', 'DB_SHARD_2', 'DB_SHARD_3'] } as const;

/**
 * The five databases migrated through the stack, each marked with its name so that its SQLite file can be told
 * apart afterwards: seeding through Miniflare's D1 proxy runs at ~100 agents/s, straight into the file at
 * thousands (bench/scale/seed-stream.ts does the same).
 */
async function migrateAndMark(stack: { d1(worker: 'single' | 'sharded', binding: string): Promise<D1Database> }) {
  const migrations = await readD1Migrations(path.join(ROOT, 'workers/registry/migrations'));
  for (const [worker, bindings] of Object.entries(BINDINGS) as ['single' | 'sharded', readonly string[]][])
    for (const binding of bindings) {
      const db = await stack.d1(worker, binding);
      for (const migration of migrations) await db.batch(migration.queries.map((query) => db.prepare(query)));
      await db.prepare("INSERT INTO accounts (id, name, created_at) VALUES ('bench-marker', ?, '')").bind(`${worker}:${binding}`).run();
    }
}

/** Each marked database's file, by `worker:binding`, marker removed. */
function markedFiles(persist: string): Map<string, Database.Database> {
  const dir = path.join(persist, 'v3/d1/miniflare-D1DatabaseObject');
  const files = new Map<string, Database.Database>();
  for (const name of readdirSync(dir).filter((file) => file.endsWith('.sqlite') && file !== 'metadata.sqlite')) {
    const db = new Database(path.join(dir, name));
    const marker = db.prepare("SELECT name FROM accounts WHERE id = 'bench-marker'").get() as { name: string } | undefined;
    if (!marker) {
      db.close();
      continue;
    }
    db.prepare("DELETE FROM accounts WHERE id = 'bench-marker'").run();
    files.set(marker.name, db);
  }
  return files;
}

/** The corpus into one database and into the shards (each agent on FNV-1a(address) mod 4), then indexed. */
async function seed(single: Database.Database, shards: Database.Database[]) {
  const all = [single, ...shards];
  const now = new Date().toISOString();
  for (const db of all) {
    db.pragma('synchronous = OFF');
    const account = db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)');
    db.transaction(() => {
      for (let i = 0; i < OWNERS; i++) account.run(`owner-${i}`, `owner-${i}`, now);
    })();
  }
  const inserts = new Map(all.map((db) => [db, db.prepare(INSERT)]));
  const progress = progressBar('seed (one database and four shards)', AGENTS);
  let chunk: { db: Database.Database; row: unknown[] }[] = [];
  const flush = () => {
    for (const db of all)
      db.transaction(() => {
        for (const item of chunk) if (item.db === db) inserts.get(db)!.run(item.row);
      })();
    chunk = [];
  };
  let index = 0;
  for (const agent of generateAgents(AGENTS, 1)) {
    const row = registrationColumns(`owner-${index % OWNERS}`, {
      ...agent,
      agent_rank: agent.recent_interactions / INTERACTIONS_PER_AGENT_RANK,
    });
    chunk.push({ db: single, row }, { db: shards[shardOf(agent.address, SHARD_COUNT)]!, row });
    index += 1;
    if (index % 5_000 === 0) {
      flush();
      progress.tick(index);
    }
  }
  flush();
  progress.finish();
  for (const db of all) {
    await indexSemanticWithProgress(db);
    db.exec('PRAGMA optimize');
  }
}

function benchKey(dbs: Database.Database[]): string {
  const key = newKeyToken();
  for (const db of dbs)
    db.prepare(
      `INSERT INTO api_keys (id, account_id, name, secret_hash, permissions, created_at) VALUES (?, 'owner-0', 'shards bench', ?, '["read","write"]', ?)`,
    ).run(key.id, key.secretHash, new Date().toISOString());
  return key.token;
}

interface Call {
  name: string;
  /** A search answers its page's addresses, in order. */
  request: (base: string, token: string, i: number) => Promise<string[] | null>;
}

async function expectOk(response: Response, what: string): Promise<string> {
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${what} answered ${response.status}: ${text.slice(0, 300)}`);
  return text;
}

const search = (name: string, body: Record<string, unknown>): Call => ({
  name,
  request: async (base, token) => {
    const response = await fetch(`${base}/v1/search/agents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ semantic_search: false, ...body }),
    });
    return (JSON.parse(await expectOk(response, name)) as { agents: { address: string }[] }).agents.map((agent) => agent.address);
  },
});

function calls(addresses: string[]): Call[] {
  const get = (name: string, path: (address: string) => string): Call => ({
    name,
    request: async (base, token, i) => {
      await expectOk(
        await fetch(`${base}${path(addresses[i % addresses.length]!)}`, { headers: { authorization: `Bearer ${token}` } }),
        name,
      );
      return null;
    },
  });
  return [
    search('search: text ("weather forecast")', { search_text: 'weather forecast' }),
    search('search: common word ("agent")', { search_text: 'agent' }),
    search('search: browse by interactions', { sort: 'interactions' }),
    search('search: filter + sort (active, created-at)', { filters: { state: ['active'] }, sort: 'created-at' }),
    search('search: deep page (offset 200)', { search_text: 'translate', offset: 200, limit: 20 }),
    get('almanac lookup', (address) => `/v1/almanac/agents/${address}`),
    get('agent detail', (address) => `/v2/agents/${address}`),
  ];
}

const work = mkdtempSync(path.join(tmpdir(), 'rdv-shards-'));
const persist = path.join(work, 'd1');
const stackOptions = {
  root: ROOT,
  persistTo: persist,
  workers: {
    single: { config: 'wrangler.toml', port: PORT },
    sharded: { config: shardedConfig(), port: PORT + 1, vars: { AGENT_SHARDS: 'DB_SHARD_1,DB_SHARD_2,DB_SHARD_3' } },
  },
};
try {
  mkdirSync(path.join(persist, 'v3/d1'), { recursive: true });
  const migrating = await startMiniflareStack({ ...stackOptions, work: path.join(work, 'migrate') });
  try {
    await migrateAndMark(migrating);
  } finally {
    await migrating.stop();
  }
  const files = markedFiles(persist);
  const single = files.get('single:DB')!;
  const shards = BINDINGS.sharded.map((binding) => files.get(`sharded:${binding}`)!);
  const started = performance.now();
  await seed(single, shards);
  console.log(
    `${AGENTS.toLocaleString('en')} agents seeded twice (one database; four shards) in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  const token = benchKey([single, shards[0]!]);
  const step = Math.max(1, Math.floor(AGENTS / 200));
  const sample = (single.prepare('SELECT address FROM agents WHERE rowid % ? = 0 LIMIT 200').all(step) as { address: string }[]).map(
    (row) => row.address,
  );
  for (const db of files.values()) db.close();
  const stack = await startMiniflareStack({ ...stackOptions, work: path.join(work, 'run') });
  try {
    const timings = calls(sample).map((call) => ({
      call,
      single: [] as number[],
      sharded: [] as number[],
      pages: {} as Record<string, string[] | null>,
    }));
    const loads: number[] = [];
    for (let round = 0; round <= ROUNDS; round++) {
      for (const timing of timings)
        for (let i = 0; i < 8; i++) {
          // Alternating which goes first: neither registry always meets a warm or a cold cache after the other.
          const order = (round + i) % 2 === 0 ? (['single', 'sharded'] as const) : (['sharded', 'single'] as const);
          for (const which of order) {
            const took = await timed(async () => {
              timing.pages[which] = await timing.call.request(stack.urls[which], token, round * 8 + i);
            });
            if (round > 0) timing[which].push(took);
          }
        }
      loads.push(loadavg()[0]!);
    }
    const ms = (value: number) => value.toFixed(1).padStart(7);
    console.log(
      `\nruntime: workerd through Miniflare, local D1; ${AGENTS.toLocaleString('en')} agents; ${ROUNDS} rounds × 8 requests per class`,
    );
    console.log(`load average (1 min) during the timing: ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}`);
    console.log(
      `${'class'.padEnd(44)} ${'one DB p50'.padStart(10)} ${'p99'.padStart(7)} ${'4 shards p50'.padStart(12)} ${'p99'.padStart(7)}  ratio p50  same top 10`,
    );
    for (const { call, single: one, sharded, pages } of timings) {
      // How many of one database's first 10 the shards' first 10 hold (relevancy over shards, docs/decisions/0207).
      const agree =
        pages.single && pages.sharded
          ? pages.single.slice(0, 10).filter((address) => pages.sharded!.slice(0, 10).includes(address)).length
          : null;
      console.log(
        `${call.name.padEnd(44)} ${ms(percentile(one, 50)).padStart(10)} ${ms(percentile(one, 99))} ${ms(percentile(sharded, 50)).padStart(12)} ${ms(percentile(sharded, 99))}  ${`${(percentile(sharded, 50) / percentile(one, 50)).toFixed(2)}×`.padStart(9)}  ${agree === null ? '' : `${agree}/${Math.min(10, pages.single!.length)}`}`,
      );
    }
  } finally {
    await stack.stop();
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
