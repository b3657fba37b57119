import Database from 'better-sqlite3';
import { generateAgents } from '../../test/registry/fixtures/corpus/generate.ts';
import { AGENT_COLUMNS, registrationColumns } from '../../test/registry/fixtures/corpus/registration-columns.ts';
import { progressBar } from './progress.ts';
import { indexSemanticWithProgress } from './semantic-seed.ts';

/**
 * Seeds generated agents straight into a migrated D1 database file (the SQLite file Miniflare's D1 opens),
 * streamed: agents are generated one at a time and written in transactions of CHUNK rows through one prepared
 * statement, so memory stays flat whatever the count. The schema's triggers index each row as registration
 * does (FTS, facts, rank, tags, functions), and the semantic index is written as registration writes it
 * (semantic-index.ts). Owners: `owners` accounts, agent i owned by account i % owners.
 */
const CHUNK = 5_000;
/**
 * The generated corpus has interaction counts but no interaction graph: its recent interactions stand for
 * cross-account evidence, as AgentRank (which the quality prior and the `preferred` token read, 0016) at one per
 * 2,000, so its mean (~0.44) is below 1 as the real graph's is, and about 4 % of agents are preferred, as under
 * 0013's prior.
 */
export const INTERACTIONS_PER_AGENT_RANK = 2_000;
const FTS_TABLES = ['search_agents_fts', 'search_preferred_fts', 'search_words', 'search_functions_fts'];

export interface StreamSeedOptions {
  file: string;
  count: number;
  owners: number;
  /** The generator's seed: the same seed gives the same corpus. */
  corpusSeed?: number;
}

export async function streamSeed({ file, count, owners, corpusSeed = 1 }: StreamSeedOptions): Promise<void> {
  const db = new Database(file);
  // Bulk load: no fsync per transaction (the file is scratch until the bench opens it).
  db.pragma('synchronous = OFF');
  db.pragma('journal_mode = MEMORY');
  // A page cache (2 GiB) that holds the address-keyed indexes, so the random addresses do not read pages back from disk.
  db.pragma('cache_size = -2097152');
  const now = new Date().toISOString();
  const account = db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < owners; i++) account.run(ownerId(i), ownerId(i), now);
  })();
  // FTS5 merges segments less often during the load, and fully once at the end.
  for (const fts of FTS_TABLES) db.prepare(`INSERT INTO ${fts} (${fts}, rank) VALUES ('automerge', 16)`).run();
  const insert = db.prepare(`INSERT INTO agents (${AGENT_COLUMNS.join(', ')}) VALUES (${AGENT_COLUMNS.map(() => '?').join(', ')})`);
  const progress = progressBar('seed', count);
  let index = 0;
  let chunk: unknown[][] = [];
  const flush = db.transaction((rows: unknown[][]) => {
    for (const row of rows) insert.run(row);
  });
  for (const agent of generateAgents(count, corpusSeed)) {
    chunk.push(
      registrationColumns(ownerId(index % owners), { ...agent, agent_rank: agent.recent_interactions / INTERACTIONS_PER_AGENT_RANK }),
    );
    index += 1;
    if (chunk.length === CHUNK) {
      flush(chunk);
      chunk = [];
      progress.tick(index);
    }
  }
  if (chunk.length) flush(chunk);
  progress.tick(index);
  progress.finish();
  let started = performance.now();
  const indexed = await indexSemanticWithProgress(db);
  process.stderr.write(`seed: ${indexed} agents indexed for semantic search in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  started = performance.now();
  for (const fts of FTS_TABLES) {
    db.prepare(`INSERT INTO ${fts} (${fts}, rank) VALUES ('automerge', 4)`).run();
    db.prepare(`INSERT INTO ${fts} (${fts}) VALUES ('optimize')`).run();
  }
  db.exec('PRAGMA optimize');
  process.stderr.write(`seed: FTS segments merged in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  db.close();
}

export const ownerId = (i: number) => `owner-${i}`;
