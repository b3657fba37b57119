import Database from 'better-sqlite3';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { textQuality } from '../../workers/registry/src/search/text-quality.ts';
import { progressBar } from './progress.ts';
import { INTERACTIONS_PER_AGENT_RANK } from './seed-stream.ts';
import { indexSemanticWithProgress } from './semantic-seed.ts';

/**
 * Brings a seed kept by an older bench up to the current schema and data, so a million agents (47 minutes of
 * seeding under load) is not seeded again when a migration lands:
 * 1. migrations renamed since the seed applied them (a merge renumbers them) get their new name in
 *    d1_migrations, so wrangler neither fails on nor applies them twice;
 * 2. the missing migrations are applied by wrangler (`migrate`);
 * 3. what a fresh seed writes that a migration leaves at its default on existing rows is filled in Node with
 *    the registry's own code (BACKFILLS; each recorded in the seed's marker file when done, so an interrupted
 *    one runs again), and every agent the migrations mark pending is indexed for semantic search, as the
 *    seeder does.
 */

/** Old name → current name. */
const RENAMED: Record<string, string> = { '0012_search_bounded.sql': '0013_search_bounded.sql' };

const ROWS_PER_TRANSACTION = 5_000;

interface QualityRow {
  rid: number;
  name: string | null;
  description: string | null;
  tags: string | null;
  use_cases: string | null;
  readme: string | null;
  text_quality: number;
}

const list = (json: string | null): string[] => {
  const value = json ? JSON.parse(json) : [];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
};

/** 0012 adds text_quality at 1; the seeder (registration-columns.ts) writes the computed one. */
function backfillTextQuality(db: Database.Database) {
  const { agents } = db.prepare('SELECT count(*) AS agents FROM agents').get() as { agents: number };
  const page = db.prepare(
    'SELECT rowid AS rid, name, description, tags, use_cases, readme, text_quality FROM agents WHERE rowid > ? ORDER BY rowid LIMIT ?',
  );
  // Only rows whose quality is not the default: an update fires the facts and rank triggers.
  const update = db.prepare('UPDATE agents SET text_quality = ? WHERE rowid = ?');
  const write = db.transaction((changes: [number, number][]) => {
    for (const [quality, rid] of changes) update.run(quality, rid);
  });
  const progress = progressBar('text quality', agents);
  let after = 0;
  let done = 0;
  let changed = 0;
  for (
    let rows = page.all(after, ROWS_PER_TRANSACTION) as QualityRow[];
    rows.length;
    rows = page.all(after, ROWS_PER_TRANSACTION) as QualityRow[]
  ) {
    const changes: [number, number][] = [];
    for (const row of rows) {
      const quality = textQuality({
        name: row.name ?? '',
        description: row.description ?? '',
        tags: list(row.tags),
        useCases: list(row.use_cases),
        readme: row.readme ?? '',
      });
      if (quality !== row.text_quality) changes.push([quality, row.rid]);
    }
    write(changes);
    changed += changes.length;
    done += rows.length;
    after = rows.at(-1)!.rid;
    progress.tick(done);
  }
  progress.finish();
  process.stderr.write(`text quality: ${changed.toLocaleString('en')} agents below 1\n`);
}

/**
 * 0016 makes the `preferred` token read AgentRank, which a seed from before it holds at 0 (nobody preferred, so
 * common words would rank every match); the seeder writes its stand-in from the interaction counts.
 */
function backfillAgentRank(db: Database.Database) {
  const { last } = db.prepare('SELECT max(rowid) AS last FROM agents').get() as { last: number | null };
  const update = db.prepare(
    'UPDATE agents SET agent_rank = recent_interactions * 1.0 / ? WHERE rowid > ? AND rowid <= ? AND recent_interactions > 0',
  );
  const progress = progressBar('agent rank', last ?? 0);
  for (let from = 0; from < (last ?? 0); from += ROWS_PER_TRANSACTION) {
    update.run(INTERACTIONS_PER_AGENT_RANK, from, from + ROWS_PER_TRANSACTION);
    progress.tick(Math.min(from + ROWS_PER_TRANSACTION, last ?? 0));
  }
  progress.finish();
}

const BACKFILLS: Record<string, (db: Database.Database) => void> = {
  '0012_search_quality_and_agent_rank.sql': backfillTextQuality,
  '0016_search_prior_from_agent_rank.sql': backfillAgentRank,
};

/** The backfills a fresh seed needs none of: the seeder writes their data. */
export const ALL_BACKFILLS = Object.keys(BACKFILLS);

/** The seed's marker file (bench/scale.ts): its size, seeding time and the backfills done since. */
interface SeedMarker {
  size: number;
  seconds: number;
  backfilled?: string[];
}

function appliedMigrations(db: Database.Database): Set<string> {
  return new Set((db.prepare('SELECT name FROM d1_migrations').all() as { name: string }[]).map((row) => row.name));
}

export async function upgradeKeptSeed({
  file,
  marker,
  migrationsDir,
  migrate,
}: {
  file: string;
  marker: string;
  migrationsDir: string;
  migrate: () => void;
}) {
  let db = new Database(file);
  const rename = db.prepare('UPDATE d1_migrations SET name = ? WHERE name = ?');
  for (const [old, current] of Object.entries(RENAMED))
    if (rename.run(current, old).changes) process.stderr.write(`upgrade: migration ${old} recorded as ${current}\n`);
  const applied = appliedMigrations(db);
  const missing = readdirSync(migrationsDir)
    .filter((name) => name.endsWith('.sql') && !applied.has(name))
    .sort();
  db.close();
  if (missing.length) process.stderr.write(`upgrade: applying ${missing.join(', ')}\n`);
  migrate();
  db = new Database(file);
  db.pragma('cache_size = -1048576');
  const seed = JSON.parse(readFileSync(marker, 'utf8')) as SeedMarker;
  const backfilled = new Set(seed.backfilled);
  for (const [name, backfill] of Object.entries(BACKFILLS)) {
    if (backfilled.has(name)) continue;
    backfill(db);
    backfilled.add(name);
    writeFileSync(marker, JSON.stringify({ ...seed, backfilled: [...backfilled] }));
  }
  const started = performance.now();
  const indexed = await indexSemanticWithProgress(db);
  if (indexed)
    process.stderr.write(
      `upgrade: ${indexed.toLocaleString('en')} agents indexed for semantic search in ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
    );
  db.close();
}
