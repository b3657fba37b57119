import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { newKeyToken } from '../lib/api-keys/key-token.ts';
import type { AgentSearchRequest } from '../schemas/search.ts';
import { searchAgents } from '../workers/registry/src/search/agent-search.ts';
import type { SearchBounds } from '../workers/registry/src/search/search-bounds.ts';
import { startMiniflareStack } from './miniflare-stack.ts';
import { QUERY_CLASSES, type BenchContext } from './scale/classes.ts';
import { queryPlans } from './scale/plans.ts';
import { registerThroughApi, type RegistrationFigures } from './scale/register-api.ts';
import { ownerId, streamSeed } from './scale/seed-stream.ts';
import { measureSize, printSize } from './scale/size.ts';
import { percentile, timed } from './scale/stats.ts';
import { ALL_BACKFILLS, upgradeKeptSeed } from './scale/upgrade-seed.ts';
import { type MemoryReading, printMemory, readMemory } from './scale/memory-reading.ts';
import { sqliteRunner } from './sqlite-runner.ts';

/**
 * The registry at scale: seeds N agents (streamed, bounded memory, progress with rate and time left), registers
 * a slice more through the signed registration API, then times every query class through the registry Worker
 * (workerd through Miniflare, bench/miniflare-stack.ts) and the search classes raw on the same SQLite file,
 * prints the search statements' query plans, the bytes per agent with projections against D1's 10 GB, and
 * workerd's memory beside each isolate's V8 heap (bench/scale/memory-reading.ts). Targets (docs/scale.md): search p50 < 20 ms, p99 < 60 ms; almanac p50 < 2 ms.
 *
 * Run: npm run bench:scale -- --agents 10000,100000 [--register 10000] [--rounds 5] [--keep /tmp/dir]
 *   --keep DIR seeds into DIR once and reuses it on later runs of the same size (DIR/<size>).
 *   --seed-only (with --keep) seeds and stops, so a long seed can run before the machine is needed for timing.
 *   --classes "a,b" times only the named query classes (bench/scale/classes.ts).
 */

const { values: args } = parseArgs({
  options: {
    agents: { type: 'string', default: '10000,100000' },
    register: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '5' },
    owners: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '4' },
    keep: { type: 'string' },
    plans: { type: 'boolean', default: true },
    'seed-only': { type: 'boolean', default: false },
    classes: { type: 'string' },
  },
});
const SIZES = args.agents.split(',').map(Number);
const REGISTER = Number(args.register);
const ROUNDS = Number(args.rounds);
const PORT = Number(process.env.PORT ?? 9797);
const INSPECTOR_PORT = PORT + 2;
const TARGET = { p50: 20, p99: 60, almanacP50: 2 };
const ROOT = path.resolve(import.meta.dirname, '..');
const BASE = `http://127.0.0.1:${PORT}`;
const MIGRATIONS = path.join(ROOT, 'workers/registry/migrations');

function migrate(persist: string) {
  const result = spawnSync(
    path.join(ROOT, 'node_modules/.bin/wrangler'),
    ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persist],
    {
      cwd: ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1' },
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) throw new Error(`wrangler d1 migrations apply failed:\n${result.stderr}\n${result.stdout}`);
}

function sqliteFile(persist: string): string {
  const dir = path.join(persist, 'v3/d1/miniflare-D1DatabaseObject');
  const file = readdirSync(dir).find((name) => name.endsWith('.sqlite') && name !== 'metadata.sqlite');
  if (!file) throw new Error(`no D1 database file under ${dir}`);
  return path.join(dir, file);
}

/** A migrated, seeded D1 directory for `size` agents: reused under --keep when already seeded at that size. */
async function seeded(size: number): Promise<{ persist: string; scratch: boolean }> {
  const persist = args.keep ? path.join(args.keep, String(size)) : mkdtempSync(path.join(tmpdir(), 'rdv-scale-'));
  const marker = path.join(persist, 'seeded.json');
  if (args.keep && existsSync(marker)) {
    console.log(`${size.toLocaleString('en')} agents: reusing the seed in ${persist} (brought up to the current schema)`);
    await upgradeKeptSeed({ file: sqliteFile(persist), marker, migrationsDir: MIGRATIONS, migrate: () => migrate(persist) });
    return { persist, scratch: false };
  }
  rmSync(persist, { recursive: true, force: true });
  mkdirSync(persist, { recursive: true });
  migrate(persist);
  const started = performance.now();
  await streamSeed({ file: sqliteFile(persist), count: size, owners: Math.min(Number(args.owners), size) });
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${size.toLocaleString('en')} agents seeded in ${seconds.toFixed(0)} s (${Math.round(size / seconds).toLocaleString('en')} agents/s)`,
  );
  writeFileSync(marker, JSON.stringify({ size, seconds, backfilled: ALL_BACKFILLS }));
  return { persist, scratch: !args.keep };
}

/** A key of owner-0 with read, write and keys permissions, written straight into the database. */
function benchKey(file: string): string {
  const key = newKeyToken();
  const db = new Database(file);
  db.prepare(
    `INSERT INTO api_keys (id, account_id, name, secret_hash, permissions, created_at) VALUES (?, ?, 'scale bench', ?, '["read","write","keys"]', ?)`,
  ).run(key.id, ownerId(0), key.secretHash, new Date().toISOString());
  db.close();
  return key.token;
}

/** Addresses spread over the registry: every n-th rowid. */
function sampleAddresses(db: Database.Database, size: number, count: number): string[] {
  const step = Math.max(1, Math.floor(size / count));
  return (db.prepare('SELECT address FROM agents WHERE rowid % ? = 0 LIMIT ?').all(step, count) as { address: string }[]).map(
    (row) => row.address,
  );
}

/** No bounds: every match ranked and counted, as before docs/decisions/0166. */
const UNBOUNDED: SearchBounds = { commonWordDocs: Number.MAX_SAFE_INTEGER, exactTotalMax: Number.MAX_SAFE_INTEGER };

const rawSearch = (db: Database.Database, request: AgentSearchRequest, bounds?: SearchBounds) =>
  timed(() =>
    searchAgents(sqliteRunner(db), null, {
      request,
      searchId: crypto.randomUUID(),
      queryKey: '',
      startedAt: new Date().toISOString(),
      bounds,
    }),
  );

const workerSearch = (context: BenchContext, request: AgentSearchRequest) =>
  timed(async () => {
    const response = await fetch(`${context.base}/v1/search/agents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${context.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(request),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`search answered ${response.status} for ${JSON.stringify(request)}: ${text}`);
  });

interface Row {
  name: string;
  worker: number[];
  raw: number[];
  /** The raw search without bounds (classes with an unbounded peer). */
  unbounded: number[];
}

async function measure(size: number): Promise<{ rows: Row[]; registration: RegistrationFigures | null; lines: string[]; pass: boolean }> {
  const { persist, scratch } = await seeded(size);
  const file = sqliteFile(persist);
  const token = benchKey(file);
  const started = performance.now();
  const stack = await startMiniflareStack({
    root: ROOT,
    work: path.join(persist, 'miniflare'),
    persistTo: persist,
    workers: { registry: { config: 'wrangler.toml', port: PORT }, chat: { config: 'workers/chat/wrangler.toml', port: PORT + 1 } },
    inspectorPort: INSPECTOR_PORT,
  });
  const lines: string[] = [];
  const chosen = args.classes?.split(',').map((name) => name.trim());
  const classes = QUERY_CLASSES.filter((candidate) => !chosen || chosen.includes(candidate.name));
  const rows: Row[] = classes.map((queryClass) => ({ name: queryClass.name, worker: [], raw: [], unbounded: [] }));
  let registration: RegistrationFigures | null = null;
  const memory: { phase: string; reading: MemoryReading }[] = [];
  try {
    console.log(`registry Worker (workerd through Miniflare) on :${PORT} ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    registration = REGISTER > 0 ? await registerThroughApi(BASE, token, REGISTER, Number(args.concurrency)) : null;
    if (registration)
      memory.push({ phase: `after ${REGISTER.toLocaleString('en')} registrations`, reading: await readMemory(INSPECTOR_PORT, false) });
    const sample = new Database(file, { readonly: true });
    const context: BenchContext = { base: BASE, token, addresses: sampleAddresses(sample, size, 500) };
    sample.close();
    for (const [c, queryClass] of classes.entries()) {
      // One warm-up pass, then ROUNDS timed ones.
      for (let round = 0; round <= ROUNDS; round++) {
        for (const request of queryClass.searches ?? []) {
          const worker = await workerSearch(context, request);
          if (round > 0) rows[c]!.worker.push(worker);
        }
        if (queryClass.call) {
          for (let i = 0; i < 8; i++) {
            const took = await queryClass.call(context, round * 8 + i);
            if (round > 0) rows[c]!.worker.push(took);
          }
        }
      }
    }
    // Collected last: the heap snapshot that collects raises the process's memory for a while.
    memory.push({ phase: 'after the query classes', reading: await readMemory(INSPECTOR_PORT, true) });
  } finally {
    await stack.stop();
  }
  // Raw, once the Worker's D1 is closed: at 1,000,000 agents a raw read of a second or more beside the Worker's
  // own writes (search sessions, after the response) made workerd drop its connections.
  const db = new Database(file, { readonly: true });
  for (const [c, queryClass] of classes.entries())
    for (let round = 0; round <= ROUNDS; round++)
      for (const request of queryClass.searches ?? []) {
        const raw = await rawSearch(db, request);
        const unbounded = queryClass.unboundedPeer ? await rawSearch(db, request, UNBOUNDED) : null;
        if (round === 0) continue;
        rows[c]!.raw.push(raw);
        if (unbounded !== null) rows[c]!.unbounded.push(unbounded);
      }
  if (args.plans)
    for (const request of [
      { search_text: 'data' },
      { search_text: 'find an agent that tracks my parcel' },
      { sort: 'interactions' },
      { filters: { category: ['fetch-ai'] }, sort: 'interactions' },
    ] as AgentSearchRequest[])
      lines.push(...(await queryPlans(db, request)));
  lines.push(...printSize(measureSize(db), size));
  db.close();
  if (scratch) rmSync(persist, { recursive: true, force: true });
  for (const { phase, reading } of memory) lines.push(...printMemory(phase, reading));
  const search = rows.filter((row) => row.raw.length).flatMap((row) => row.worker);
  const almanac = rows.find((row) => row.name === 'almanac lookup')?.worker ?? [];
  const floor = rows.find((row) => row.name === 'runtime floor')?.worker ?? [];
  const checks: [string, boolean][] = [
    [`search p50 ${percentile(search, 50).toFixed(1)} ms < ${TARGET.p50} ms`, percentile(search, 50) < TARGET.p50],
    [`search p99 ${percentile(search, 99).toFixed(1)} ms < ${TARGET.p99} ms`, percentile(search, 99) < TARGET.p99],
    [
      `almanac p50 ${percentile(almanac, 50).toFixed(2)} ms < ${TARGET.almanacP50} ms (runtime floor, GET /health: ${percentile(floor, 50).toFixed(2)} ms)`,
      percentile(almanac, 50) < TARGET.almanacP50,
    ],
  ];
  for (const [label, ok] of checks) lines.push(`${ok ? 'PASS' : 'FAIL'}  ${label}`);
  return { rows, registration, lines, pass: checks.every(([, ok]) => ok) };
}

function table(size: number, rows: Row[], registration: RegistrationFigures | null): string[] {
  const ms = (values: number[], p: number) => (values.length ? percentile(values, p).toFixed(1) : '-').padStart(7);
  const lines = [
    `\n${size.toLocaleString('en')} agents — registry Worker on workerd (Miniflare), raw = the same search code on better-sqlite3; load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
    `${'class'.padEnd(22)} ${'n'.padStart(4)} ${'p50'.padStart(7)} ${'p99'.padStart(7)}   ${'raw p50'.padStart(7)} ${'raw p99'.padStart(7)}   ${'unbounded raw p50'.padStart(17)} ${'p99'.padStart(7)}   (ms)`,
  ];
  for (const row of rows)
    lines.push(
      `${row.name.padEnd(22)} ${String(row.worker.length).padStart(4)} ${ms(row.worker, 50)} ${ms(row.worker, 99)}   ${ms(row.raw, 50)} ${ms(row.raw, 99)}   ${ms(row.unbounded, 50).padStart(17)} ${ms(row.unbounded, 99)}`,
    );
  if (registration)
    lines.push(
      `registrations (signed, through the API, ${args.concurrency} clients): ${registration.count.toLocaleString('en')} in ${registration.seconds.toFixed(1)} s = ${registration.perSecond.toFixed(0)}/s, p50 ${registration.p50.toFixed(1)} ms, p99 ${registration.p99.toFixed(1)} ms (challenge + registration), ${registration.retries} started over on a closed connection`,
    );
  return lines;
}

if (args['seed-only']) {
  if (!args.keep) throw new Error('--seed-only needs --keep DIR (a scratch seed would be deleted unused)');
  for (const size of SIZES) await seeded(size);
  process.exit(0);
}
let passed = true;
for (const size of SIZES) {
  const { rows, registration, lines, pass } = await measure(size);
  console.log([...table(size, rows, registration), ...lines].join('\n'));
  passed &&= pass;
}
console.log(`\nscale bench: ${passed ? 'PASS' : 'FAIL'}`);
process.exitCode = passed ? 0 : 1;
