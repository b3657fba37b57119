import { agentColumns } from '../agents/columns.ts';
import type { AgentRow } from '../agents/row.ts';
import { envNumber } from '../../../../lib/config/env-number.ts';
import type { SqlRunner } from './sql-runner.ts';

/**
 * Semantic search: agents embedded with Workers AI, nearest neighbours from Vectorize. Both bindings exist
 * only when deployed (`[env.production]` in wrangler.toml), where their hits are added to the offline source's
 * (semantic-source.ts); without them the offline source answers alone. The interfaces below are the slices of the
 * bindings we use, so tests can pass stand-ins.
 */

const EMBEDDING_MODEL = '@cf/baai/bge-small-en-v1.5';
/** Neighbours asked of Vectorize (its limit without returned values/metadata is 100). */
const SEMANTIC_TOP_K = 50;
/**
 * The cosine below which a neighbour is not related to the query, and above which its strength in fusion rises
 * linearly to 1: a calibration of the embedding model, not of the query, so a request that means nothing finds
 * nothing by meaning. bge-small puts unrelated texts near 0.5, hence 0.55; a model with another cosine scale needs
 * its own (`SEMANTIC_MIN_SIMILARITY`, docs/configuration.md; docs/decisions/0217).
 */
const DEFAULT_MIN_SIMILARITY = 0.55;
/** Agents (re)embedded per background sync; bounded so one request's waitUntil stays short. */
const EMBED_BATCH = 25;
/** Characters of an agent's text embedded (the model reads 512 tokens). */
const EMBED_TEXT_CHARS = 2000;

interface EmbeddingRunner {
  run(model: string, input: { text: string[] }): Promise<{ data?: number[][] } | unknown>;
}

interface VectorIndex {
  query(vector: number[], options: { topK: number }): Promise<{ matches: { id: string; score: number }[] }>;
  upsert(vectors: { id: string; values: number[] }[]): Promise<unknown>;
  deleteByIds(ids: string[]): Promise<unknown>;
}

export interface SemanticBindings {
  AI?: unknown;
  VECTORIZE?: unknown;
  SEMANTIC_MIN_SIMILARITY?: string;
}

export interface SemanticBackend {
  ai: EmbeddingRunner;
  index: VectorIndex;
  /** The embedding model's floor: a neighbour less similar than this is no hit. */
  minSimilarity: number;
}

/** The backend when both bindings are present, else null (local development, tests without stand-ins). */
export function semanticBackend(env: SemanticBindings): SemanticBackend | null {
  if (!env.AI || !env.VECTORIZE) return null;
  // The real bindings' types are generic over every model; we use one embedding model through this slice.
  return { ai: env.AI as EmbeddingRunner, index: env.VECTORIZE as VectorIndex, minSimilarity: minSimilarity(env.SEMANTIC_MIN_SIMILARITY) };
}

/** The configured floor, unset meaning bge-small's; anything but a number from 0 to below 1 is a deploy's mistake. */
export function minSimilarity(value: string | undefined): number {
  if (value === undefined) return DEFAULT_MIN_SIMILARITY;
  // The one reader of numeric settings, with no fallback: a value it would not use is refused below.
  const floor = envNumber(value.trim(), Number.NaN, { min: 0 });
  if (!(floor < 1)) throw new Error(`SEMANTIC_MIN_SIMILARITY must be a number from 0 to below 1, not "${value}"`);
  return floor;
}

async function embed(backend: SemanticBackend, texts: string[]): Promise<number[][]> {
  const output = (await backend.ai.run(EMBEDDING_MODEL, { text: texts })) as { data?: number[][] };
  if (!Array.isArray(output.data) || output.data.length !== texts.length) throw new Error('embedding model returned no vectors');
  return output.data;
}

/** Vectorize ids are at most 64 bytes; an address is 65 characters, so the id is its sha-256. */
async function vectorId(address: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(address));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

export interface SemanticHit {
  address: string;
  similarity: number;
  /** How strongly the hit counts in fusion (fusion.ts), 0–1 on every source's scale alike. */
  strength: number;
}

/** Nearest agents to the query text, best first, at least as similar as the model's floor. */
export async function semanticHits(backend: SemanticBackend, runner: SqlRunner, text: string): Promise<SemanticHit[]> {
  const [vector] = await embed(backend, [text.slice(0, EMBED_TEXT_CHARS)]);
  const { matches } = await backend.index.query(vector!, { topK: SEMANTIC_TOP_K });
  const floor = backend.minSimilarity;
  const close = matches.filter((match) => match.score >= floor);
  if (close.length === 0) return [];
  const rows = await runner.all<{ vector_id: string; address: string }>({
    sql: 'SELECT vector_id, address FROM search_embeddings WHERE vector_id IN (SELECT value FROM json_each(?1))',
    params: [JSON.stringify(close.map((match) => match.id))],
  });
  const addressOf = new Map(rows.map((row) => [row.vector_id, row.address]));
  return close.flatMap((match) => {
    const address = addressOf.get(match.id);
    const strength = (match.score - floor) / (1 - floor);
    return address ? [{ address, similarity: match.score, strength }] : [];
  });
}

type StaleAgent = Pick<AgentRow, 'address' | 'name' | 'description' | 'tags' | 'readme' | 'last_updated'>;

/**
 * Brings Vectorize up to date with the agents table: embeds up to EMBED_BATCH agents that are new or changed
 * since they were embedded, and deletes the vectors of agents that are gone. Runs after semantic searches
 * (waitUntil) and from the scheduled handler; returns how many agents it embedded.
 */
export async function syncEmbeddings(backend: SemanticBackend, runner: SqlRunner, batch = EMBED_BATCH): Promise<number> {
  const stale = await runner.all<StaleAgent>({
    sql: `SELECT a.address, a.name, a.description, a.tags, a.readme, a.last_updated
          FROM agents a LEFT JOIN search_embeddings e ON e.address = a.address
          WHERE a.account_id IS NOT NULL AND (e.address IS NULL OR e.source_updated IS NOT a.last_updated)
          ORDER BY a.last_updated LIMIT ?1`,
    params: [batch],
  });
  const gone = await runner.all<{ address: string; vector_id: string }>({
    sql: 'SELECT e.address, e.vector_id FROM search_embeddings e WHERE NOT EXISTS (SELECT 1 FROM agents a WHERE a.address = e.address) LIMIT ?1',
    params: [batch],
  });
  if (gone.length) {
    await backend.index.deleteByIds(gone.map((row) => row.vector_id));
    await runner.all({
      sql: 'DELETE FROM search_embeddings WHERE address IN (SELECT value FROM json_each(?1))',
      params: [JSON.stringify(gone.map((row) => row.address))],
    });
  }
  if (stale.length === 0) return 0;
  const texts = stale.map((agent) => embeddingText(agent));
  const vectors = await embed(backend, texts);
  const ids = await Promise.all(stale.map((agent) => vectorId(agent.address)));
  await backend.index.upsert(stale.map((_, i) => ({ id: ids[i]!, values: vectors[i]! })));
  await runner.batch(
    stale.map((agent, i) => ({
      sql: `INSERT INTO search_embeddings (address, vector_id, source_updated) VALUES (?1, ?2, ?3)
            ON CONFLICT (address) DO UPDATE SET vector_id = excluded.vector_id, source_updated = excluded.source_updated`,
      params: [agent.address, ids[i], agent.last_updated],
    })),
  );
  return stale.length;
}

function embeddingText(agent: StaleAgent): string {
  return [agent.name, agentColumns.tags(agent.tags).join(', '), agent.description, agent.readme].join('\n').slice(0, EMBED_TEXT_CHARS);
}
