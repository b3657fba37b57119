import type Database from 'better-sqlite3';

/**
 * Bytes the database spends per agent, by part (dbstat: every table's and index's pages), and the size
 * projected at 1M and 10M agents against D1's per-database limit. Linear projection: every part grows with
 * the agents (FTS doclists, indexes and rows alike); the fixed part (schema, the vocabulary's first pages) is
 * negligible at these sizes.
 */
export const D1_DATABASE_LIMIT_BYTES = 10 * 1000 ** 3;

const PARTS: [label: string, test: (name: string) => boolean][] = [
  ['agents (rows + indexes)', (name) => name === 'agents' || name.startsWith('agents_by') || name.startsWith('sqlite_autoindex_agents')],
  ['agent text FTS', (name) => name.startsWith('search_agents_fts')],
  ['vocabulary FTS', (name) => name.startsWith('search_words')],
  ['function search', (name) => name.startsWith('search_functions')],
  [
    'facts + rank (rows + indexes)',
    (name) =>
      name.startsWith('search_agent_facts') ||
      name.startsWith('search_facts') ||
      name.startsWith('search_agent_rank') ||
      name.startsWith('sqlite_autoindex_search_agent_'),
  ],
  ['tags, protocols', (name) => name.startsWith('search_agent_tags') || name.startsWith('search_agent_protocols')],
  ['vectors (search_embeddings)', (name) => name.startsWith('search_embeddings')],
  [
    'semantic index (vectors, concepts)',
    (name) => name.startsWith('search_agent_vectors') || name.startsWith('search_vectors_') || name.includes('concepts'),
  ],
];

export interface SizeReport {
  fileBytes: number;
  parts: { label: string; bytes: number }[];
}

export function measureSize(db: Database.Database): SizeReport {
  const rows = db.prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name').all() as { name: string; bytes: number }[];
  const parts = PARTS.map(([label]) => ({ label, bytes: 0 }));
  const other = { label: 'everything else', bytes: 0 };
  for (const row of rows) {
    const index = PARTS.findIndex(([, test]) => test(row.name));
    (index >= 0 ? parts[index]! : other).bytes += row.bytes;
  }
  const pageCount = (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
  return { fileBytes: pageCount, parts: [...parts, other] };
}

const gb = (bytes: number) => `${(bytes / 1000 ** 3).toFixed(2)} GB`;

export function printSize(size: SizeReport, agents: number): string[] {
  const lines = [
    `database: ${gb(size.fileBytes)} for ${agents.toLocaleString('en')} agents, ${Math.round(size.fileBytes / agents).toLocaleString('en')} bytes per agent`,
  ];
  for (const part of size.parts)
    lines.push(
      `  ${part.label.padEnd(32)} ${Math.round(part.bytes / agents)
        .toLocaleString('en')
        .padStart(7)} B/agent`,
    );
  for (const projected of [1_000_000, 10_000_000]) {
    const bytes = (size.fileBytes / agents) * projected;
    const verdict = bytes <= D1_DATABASE_LIMIT_BYTES ? 'fits' : `needs ≥ ${Math.ceil(bytes / D1_DATABASE_LIMIT_BYTES)} shards`;
    lines.push(
      `  projected at ${projected.toLocaleString('en').padStart(10)}: ${gb(bytes).padStart(9)} vs D1's 10 GB per database: ${verdict}`,
    );
  }
  return lines;
}
