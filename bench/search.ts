import Database from 'better-sqlite3';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { newKeyToken } from '../lib/api-keys/key-token.ts';
import type { AgentSearchRequest } from '../schemas/search.ts';
import { searchAgents } from '../workers/registry/src/search/agent-search.ts';
import { semanticSource } from '../workers/registry/src/search/semantic-source.ts';
import { startMiniflareStack } from './miniflare-stack.ts';
import { ownerId, streamSeed } from './scale/seed-stream.ts';
import { sqliteRunner } from './sqlite-runner.ts';
import { lineChartSvg, measuredUnder, writeChart } from './svg-chart.ts';

/**
 * Search latency at 10,000 and 100,000 agents, through the running Worker (local D1) and the same search
 * code run directly on the same SQLite file (better-sqlite3), query kind by query kind.
 * Targets at 100,000 agents: Worker p50 < 20 ms and p99 < 60 ms over all kinds, Worker p50 ≤ 3× raw p50, the
 * isolate's first search < 100 ms in each of COLD_ISOLATES (5) fresh isolates. Bodies carry no flags: the default
 * ranking (hybrid, offline semantic source).
 *
 * Runtime (BENCH_SEARCH_RUNTIME): `miniflare` (default) runs the registry Worker in workerd through
 * Miniflare's API on its own socket (bench/miniflare-stack.ts), over the D1 files wrangler seeded;
 * `wrangler-dev` runs it under `wrangler dev`, which adds its local proxy (~3 ms a request here) that the
 * edge does not have (docs/decisions/0006).
 *
 * Run: npm run bench:search   (-- --agents 1000000 or SIZES=10000 for other sizes; PORT to move the Worker off 9787)
 * SEED_DIR=/path keeps each size's seeded D1 under /path/<size> and reuses it on the next run (seeding 100,000
 * agents takes minutes); a change to the migrations or the seeder needs a fresh directory.
 */

const agentsFlag = process.argv.indexOf('--agents');
/** `--agents 1000000` (or SIZES=…): the sizes to run. */
const SIZES = (agentsFlag >= 0 ? process.argv[agentsFlag + 1]! : (process.env.SIZES ?? '10000,100000')).split(',').map(Number);
const PORT = Number(process.env.PORT ?? 9787);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const RUNTIME = process.env.BENCH_SEARCH_RUNTIME ?? 'miniflare';
const SEED_DIR = process.env.SEED_DIR;
/** Fresh isolates whose first search is timed (the runtime started anew for each). */
const COLD_ISOLATES = Number(process.env.COLD_ISOLATES ?? 5);
if (!(COLD_ISOLATES >= 1)) throw new Error(`COLD_ISOLATES is at least 1, not ${process.env.COLD_ISOLATES}`);
if (RUNTIME !== 'miniflare' && RUNTIME !== 'wrangler-dev')
  throw new Error(`BENCH_SEARCH_RUNTIME is miniflare or wrangler-dev, not ${RUNTIME}`);
const TARGET = { p50: 20, p99: 60, ratio: 3, cold: 100 };
const ROOT = path.resolve(import.meta.dirname, '..');
const WRANGLER = path.join(ROOT, 'node_modules/.bin/wrangler');
const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1' };

/** Query kinds and the bodies each cycles through. */
const KINDS: Record<string, AgentSearchRequest[]> = {
  'one word': ['weather', 'translation', 'crypto', 'hotel', 'music', 'insurance'].map((search_text) => ({ search_text })),
  'two words': ['stock analysis', 'vegan recipes', 'jazz playlist', 'tax refund', 'route planner'].map((search_text) => ({ search_text })),
  'prefix typed': ['weath', 'transl', 'summ', 'calend', 'insur'].map((search_text) => ({ search_text })),
  typo: ['wether forcast', 'tranlsation', 'hotle', 'cyrpto wallet', 'workuot'].map((search_text) => ({ search_text })),
  sentence: ['what can I cook with rice tonight', 'find an agent that tracks my parcel', 'I need a lawyer to review a contract'].map(
    (search_text) => ({ search_text }),
  ),
  'text + filters': [
    { search_text: 'finance', filters: { agent_type: ['uagent', 'hosted'], tags: ['finance'] } },
    { search_text: 'weather', filters: { has_location: true, state: ['active', 'inactive'] } },
  ],
  browse: [{}, { sort: 'created-at' }, { sort: 'interactions', direction: 'asc' }, { filters: { category: ['fetch-ai'] } }],
  'deep page': [
    { search_text: 'weather', offset: 600 },
    { sort: 'last-modified', offset: 9000 },
  ],
  rerank: [
    { search_text: 'currency converter', rerank: true },
    { search_text: 'smart thermostat', rerank: true },
  ],
};

function wrangler(args: string[], persist: string) {
  const result = spawnSync(WRANGLER, [...args, '--local', '--persist-to', persist], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (result.status !== 0) throw new Error(`wrangler ${args.join(' ')} failed:\n${result.stderr}\n${result.stdout}`);
}

/**
 * A local D1 with the migrations, `size` generated agents of one account (streamed into the file: any size,
 * flat memory; bench/scale/seed-stream.ts) and a read key of that account.
 */
async function seed(size: number, persist: string): Promise<string> {
  wrangler(['d1', 'migrations', 'apply', 'DB'], persist);
  const file = sqliteFile(persist);
  await streamSeed({ file, count: size, owners: 1 });
  const key = newKeyToken();
  const db = new Database(file);
  db.prepare(
    `INSERT INTO api_keys (id, account_id, name, secret_hash, permissions, created_at) VALUES (?, ?, 'bench', ?, '["read"]', ?)`,
  ).run(key.id, ownerId(0), key.secretHash, new Date().toISOString());
  db.close();
  return key.token;
}

function sqliteFile(persist: string): string {
  const dir = path.join(persist, 'v3/d1/miniflare-D1DatabaseObject');
  const file = readdirSync(dir).find((name) => name.endsWith('.sqlite') && name !== 'metadata.sqlite');
  if (!file) throw new Error(`no D1 database file under ${dir}`);
  return path.join(dir, file);
}

interface RunningWorker {
  stop(): Promise<void>;
}

async function startWorker(persist: string): Promise<RunningWorker> {
  if (RUNTIME === 'miniflare') {
    // The chat Worker runs beside it because the registry's config binds it (CHAT_KEYS); search never calls it.
    const stack = await startMiniflareStack({
      root: ROOT,
      work: path.join(persist, 'miniflare'),
      persistTo: persist,
      workers: { registry: { config: 'wrangler.toml', port: PORT }, chat: { config: 'workers/chat/wrangler.toml', port: PORT + 1 } },
    });
    await waitForHealth(() => stack.stop());
    return stack;
  }
  const child = spawn(WRANGLER, ['dev', '--port', String(PORT), '--ip', '127.0.0.1', '--persist-to', persist, '--log-level', 'error'], {
    cwd: ROOT,
    env,
    stdio: 'ignore',
    detached: true,
  });
  const stop = async () => {
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
  };
  await waitForHealth(stop);
  return { stop };
}

async function waitForHealth(stop: () => Promise<void>) {
  for (let i = 0; i < 120; i++) {
    const up = await fetch(`http://127.0.0.1:${PORT}/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await stop();
  throw new Error(`the registry Worker (${RUNTIME}) did not answer on port ${PORT}`);
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

async function timeWorker(token: string, body: AgentSearchRequest): Promise<number> {
  const started = performance.now();
  const response = await fetch(`http://127.0.0.1:${PORT}/v1/search/agents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`search answered ${response.status} for ${JSON.stringify(body)}`);
  return performance.now() - started;
}

async function timeRaw(db: Database.Database, body: AgentSearchRequest): Promise<number> {
  const started = performance.now();
  // The route's default: hybrid with the offline semantic source (no Workers AI or Vectorize bound here).
  await searchAgents(sqliteRunner(db), semanticSource({}), {
    request: body,
    searchId: crypto.randomUUID(),
    queryKey: '',
    startedAt: new Date().toISOString(),
  });
  return performance.now() - started;
}

interface Figures {
  kind: string;
  worker: number[];
  raw: number[];
}

/** The kept seed's directory and key (SEED_DIR), or a fresh one seeded now and removed after the run. */
async function seeded(size: number): Promise<{ persist: string; token: string; kept: boolean }> {
  const kept = SEED_DIR ? path.join(SEED_DIR, String(size)) : undefined;
  const tokenFile = kept && path.join(kept, 'bench-key');
  if (tokenFile && existsSync(tokenFile)) {
    console.log(`\n${size.toLocaleString('en')} agents: the seed kept in ${kept}`);
    return { persist: kept!, token: readFileSync(tokenFile, 'utf8'), kept: true };
  }
  const persist = kept ?? mkdtempSync(path.join(tmpdir(), 'rdv-search-bench-'));
  mkdirSync(persist, { recursive: true });
  const started = performance.now();
  const token = await seed(size, persist);
  console.log(`\n${size.toLocaleString('en')} agents: seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (tokenFile) writeFileSync(tokenFile, token);
  return { persist, token, kept: Boolean(kept) };
}

/**
 * Each fresh isolate's first search (a sentence, so the default ranking reads the shipped word vectors, their
 * index and the bucket centroids), the runtime started anew for each: one start is one sample, and its time is
 * as noisy as the machine.
 */
async function coldFirstSearches(persist: string, token: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < COLD_ISOLATES; i++) {
    const worker = await startWorker(persist);
    try {
      times.push(await timeWorker(token, { search_text: 'find an agent that tracks my parcel' }));
    } finally {
      await worker.stop();
    }
  }
  return times;
}

async function measure(size: number): Promise<boolean> {
  const { persist, token, kept } = await seeded(size);
  let worker: RunningWorker | undefined;
  try {
    const cold = await coldFirstSearches(persist, token);
    console.log(`first search of ${COLD_ISOLATES} fresh isolates: ${cold.map((ms) => ms.toFixed(1)).join(', ')} ms`);
    const started = performance.now();
    worker = await startWorker(persist);
    console.log(`registry Worker (${RUNTIME}) on :${PORT} ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const db = new Database(sqliteFile(persist), { readonly: true });
    const figures: Figures[] = [];
    for (const [kind, bodies] of Object.entries(KINDS)) {
      for (const body of bodies) {
        await timeWorker(token, body);
        await timeRaw(db, body);
      }
      const entry: Figures = { kind, worker: [], raw: [] };
      for (let round = 0; round < ROUNDS * 4; round++) {
        for (const body of bodies) {
          entry.worker.push(await timeWorker(token, body));
          entry.raw.push(await timeRaw(db, body));
        }
      }
      figures.push(entry);
    }
    db.close();
    return report(size, figures, cold);
  } finally {
    await worker?.stop();
    if (!kept) rmSync(persist, { recursive: true, force: true });
  }
}

function report(size: number, figures: Figures[], cold: number[]): boolean {
  const row = (kind: string, worker: number[], raw: number[]) =>
    `${kind.padEnd(15)} ${String(worker.length).padStart(4)}  ${percentile(worker, 50).toFixed(1).padStart(7)} ${percentile(worker, 99).toFixed(1).padStart(7)}   ${percentile(raw, 50).toFixed(1).padStart(7)} ${percentile(raw, 99).toFixed(1).padStart(7)}   ${(percentile(worker, 50) / percentile(raw, 50)).toFixed(2).padStart(5)}`;
  console.log(
    `${'kind'.padEnd(15)} ${'n'.padStart(4)}  ${'worker p50'.padStart(7)} ${'p99'.padStart(7)}   ${'raw p50'.padStart(7)} ${'p99'.padStart(7)}   ratio   (ms)`,
  );
  for (const entry of figures) console.log(row(entry.kind, entry.worker, entry.raw));
  const worker = figures.flatMap((entry) => entry.worker);
  const raw = figures.flatMap((entry) => entry.raw);
  console.log(row('ALL', worker, raw));
  const p50 = percentile(worker, 50);
  const p99 = percentile(worker, 99);
  const ratio = p50 / percentile(raw, 50);
  bySize.push({ size, worker: [p50, p99], raw: [percentile(raw, 50), percentile(raw, 99)] });
  const checks = [
    [`Worker p50 ${p50.toFixed(1)} ms < ${TARGET.p50} ms`, p50 < TARGET.p50],
    [`Worker p99 ${p99.toFixed(1)} ms < ${TARGET.p99} ms`, p99 < TARGET.p99],
    [`Worker p50 / raw p50 ${ratio.toFixed(2)} ≤ ${TARGET.ratio}`, ratio <= TARGET.ratio],
    [
      `cold first search: slowest of ${cold.length} isolates ${Math.max(...cold).toFixed(1)} ms (median ${percentile(cold, 50).toFixed(1)}) < ${TARGET.cold} ms`,
      Math.max(...cold) < TARGET.cold,
    ],
  ] as const;
  const judged = size >= 100_000;
  for (const [label, ok] of checks)
    console.log(`${judged ? (ok ? 'PASS' : 'FAIL') : 'info'}  ${label}${judged ? '' : ' (targets apply at 100,000 agents)'}`);
  return !judged || checks.every(([, ok]) => ok);
}

/** Each size's percentiles (ms): worker and raw, p50 and p99, for the chart. */
const bySize: { size: number; worker: [number, number]; raw: [number, number] }[] = [];

let passed = true;
for (const size of SIZES) passed = (await measure(size)) && passed;
const line = (name: string, pick: (entry: (typeof bySize)[number]) => number) => ({
  name,
  points: bySize.map((entry) => [entry.size, pick(entry)] as const),
});
const chart = writeChart(
  path.join(import.meta.dirname, 'charts/search-latency.svg'),
  lineChartSvg({
    title: `Search latency against registry size`,
    note: measuredUnder(
      `registry Worker (${RUNTIME}) and raw SQLite`,
      `${Object.keys(KINDS).length} query kinds × ${ROUNDS * 4} rounds, default (hybrid) ranking`,
    ),
    xLabel: 'agents in the registry',
    yLabel: 'ms',
    logX: true,
    series: [
      line('Worker p50', (entry) => entry.worker[0]),
      line('Worker p99', (entry) => entry.worker[1]),
      line('raw SQLite p50', (entry) => entry.raw[0]),
      line('raw SQLite p99', (entry) => entry.raw[1]),
    ],
  }),
);
console.log(`\nchart: ${path.relative(process.cwd(), chart)}`);
console.log(`search bench: ${passed ? 'PASS' : 'FAIL'}`);
process.exitCode = passed ? 0 : 1;
