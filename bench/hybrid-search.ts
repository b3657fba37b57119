import Database from 'better-sqlite3';
import path from 'node:path';
import { readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { generateAgents } from '../test/registry/fixtures/corpus/generate.ts';
import { AGENT_COLUMNS, registrationColumns } from '../test/registry/fixtures/corpus/registration-columns.ts';
import { HELD_OUT_VECTOR_QUERIES } from '../test/registry/fixtures/judged/held-out.ts';
import { JUDGED_QUERIES } from '../test/registry/fixtures/judged/queries.ts';
import { searchAgents } from '../workers/registry/src/search/agent-search.ts';
import { conceptSource, offlineSource } from '../workers/registry/src/search/offline-source.ts';
import { indexAllPendingAgents } from '../workers/registry/src/search/semantic-index.ts';
import type { SemanticSource } from '../workers/registry/src/search/semantic-source-types.ts';
import { sqliteRunner } from './sqlite-runner.ts';

/**
 * What semantic_search costs offline: the same requests (the judged set's natural-language and held-out
 * queries) answered lexically, with the concept lexicon alone and with the offline source (word vectors +
 * concepts), on the search code over better-sqlite3 with the generated corpus of bench:search. No target: the
 * default search stays lexical (bench:search's targets); semantic_search is what discovery sends.
 * Run: npx tsx bench/hybrid-search.ts   (SIZES=10000 by default; a comma-separated list for more)
 */

const SIZES = (process.env.SIZES ?? '10000').split(',').map(Number);
const ROOT = path.resolve(import.meta.dirname, '..');
const QUERIES = [...JUDGED_QUERIES.filter((query) => query.kind === 'natural'), ...HELD_OUT_VECTOR_QUERIES].map((query) => query.query);
const MODES: Record<string, SemanticSource | null> = {
  lexical: null,
  'hybrid, concepts only': conceptSource,
  'hybrid, offline source': offlineSource,
};

async function database(size: number): Promise<Database.Database> {
  const db = new Database(':memory:');
  for (const migration of await readD1Migrations(path.join(ROOT, 'workers/registry/migrations'))) {
    for (const query of migration.queries) db.prepare(query).run();
  }
  db.prepare("INSERT INTO accounts (id, name, created_at) VALUES ('bench', 'bench', '2026-01-01')").run();
  const insert = db.prepare(`INSERT INTO agents (${AGENT_COLUMNS.join(', ')}) VALUES (${AGENT_COLUMNS.map(() => '?').join(', ')})`);
  db.transaction(() => {
    for (const agent of generateAgents(size, 1)) insert.run(...registrationColumns('bench', agent));
  })();
  db.prepare("INSERT INTO search_agents_fts (search_agents_fts) VALUES ('optimize')").run();
  await indexAllPendingAgents(sqliteRunner(db));
  return db;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

for (const size of SIZES) {
  const db = await database(size);
  const runner = sqliteRunner(db);
  console.log(`${size} agents, ${QUERIES.length} natural-language requests, limit 10 (ms per search, raw SQLite):`);
  for (const [label, semantic] of Object.entries(MODES)) {
    const times: number[] = [];
    // The first round warms the statement cache and, for word vectors, decodes the table.
    for (let round = 0; round < 2; round++) {
      for (const text of QUERIES) {
        const started = performance.now();
        const request = { search_text: text, limit: 10, semantic_search: semantic !== null };
        await searchAgents(runner, semantic, { request, searchId: 'bench', queryKey: text, startedAt: new Date().toISOString() });
        if (round === 1) times.push(performance.now() - started);
      }
    }
    times.sort((a, b) => a - b);
    console.log(
      `  ${label.padEnd(24)} p50 ${percentile(times, 50).toFixed(1).padStart(6)}  p95 ${percentile(times, 95).toFixed(1).padStart(6)}`,
    );
  }
  db.close();
}
