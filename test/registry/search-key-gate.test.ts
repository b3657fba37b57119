import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseKeyToken } from '../../lib/api-keys/key-token.ts';
import type { AgentSearchRequest } from '../../schemas/search.ts';
import { BatchedKeyCheck } from '../../workers/registry/src/keys/batched-key.ts';
import { searchAgents } from '../../workers/registry/src/search/agent-search.ts';
import { offlineSource } from '../../workers/registry/src/search/offline-source.ts';
import { d1Runner } from '../../workers/registry/src/search/sql-runner.ts';
import { generateAgents } from './fixtures/corpus/generate.ts';
import { seedRegistry } from './fixtures/seeded-registry.ts';

/**
 * The search's first batch reads the caller's key and, in the same batch, runs the search statements. Those
 * are gated on the key in SQL, so a made-up or revoked key gets no search work done for it, even before the
 * route sees the key row and refuses. Run here without the refusal, to see what the gated statements do.
 */
let token: string;
let keyId: string;
/** A word in most agents, so its search runs whole in the first batch (agent-search.ts, lexicalSearch). */
let commonWord: string;
/** An agent's description: words both halves of the offline semantic source read (concepts, and word vectors from four words). */
let description: string;

beforeAll(async () => {
  ({ token, keyId } = await seedRegistry([...generateAgents(60, 5)]));
  commonWord = (await env.DB.prepare('SELECT term FROM search_words_vocab WHERE length(term) > 4 ORDER BY doc DESC LIMIT 1').first<{
    term: string;
  }>())!.term;
  description = (await env.DB.prepare('SELECT description FROM agents ORDER BY rowid LIMIT 1').first<{ description: string }>())!
    .description;
});

/** D1, refusing a second batch: every search here must be answered by its first, the one the gate covers. */
function firstBatchOnly() {
  const runner = d1Runner(env.DB);
  let batches = 0;
  return {
    all: runner.all,
    batch(statements: Parameters<typeof runner.batch>[0]) {
      if (++batches > 1) throw new Error('a second batch: the search did not answer from the gated one');
      return runner.batch(statements);
    },
  };
}

function searchAs(key: string, request: AgentSearchRequest) {
  const check = new BatchedKeyCheck(parseKeyToken(key)!, 'read', new Date());
  return searchAgents(firstBatchOnly(), null, {
    request,
    searchId: crypto.randomUUID(),
    queryKey: '',
    startedAt: new Date().toISOString(),
    gate: (params) => check.gate((value) => params.add(value)),
  });
}

const firstBatchSearches: [string, () => AgentSearchRequest][] = [
  ['browse', () => ({})],
  ['browse with filters', () => ({ filters: { category: ['community', 'fetch-ai'] }, sort: 'created-at' })],
  ['a common word', () => ({ search_text: commonWord })],
  ['a phrase', () => ({ search_text: commonWord, exact_match: true })],
];

describe('the key gate of the search batch', () => {
  it.each(firstBatchSearches)('%s: finds agents for the live key, nothing for a wrong secret or a revoked key', async (_, requestOf) => {
    const request = requestOf();
    const live = await searchAs(token, request);
    expect(live.total).toBeGreaterThan(0);
    expect(live.rows.length).toBeGreaterThan(0);

    const wrongSecret = token.slice(0, -4) + (token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect(await searchAs(wrongSecret, request)).toMatchObject({ total: 0, rows: [] });

    await env.DB.prepare('UPDATE api_keys SET revoked_at = ?1 WHERE id = ?2').bind(new Date().toISOString(), keyId).run();
    try {
      expect(await searchAs(token, request)).toMatchObject({ total: 0, rows: [] });
    } finally {
      await env.DB.prepare('UPDATE api_keys SET revoked_at = NULL WHERE id = ?1').bind(keyId).run();
    }
  });
});

/** The offline semantic source's statements, which a hybrid search runs in its first batch, gated on `key`: rows per statement. */
async function semanticRowsAs(key: string, text: string): Promise<number[]> {
  const check = new BatchedKeyCheck(parseKeyToken(key)!, 'read', new Date());
  const plan = offlineSource.plan!(text, (params) => check.gate((value) => params.add(value)));
  const rows = await d1Runner(env.DB).batch(plan.statements);
  return rows.map((statementRows) => statementRows.length);
}

describe('the semantic statements of the first batch', () => {
  it('read candidates for the live key, nothing for a wrong secret or a revoked key', async () => {
    const live = await semanticRowsAs(token, description);
    expect(live).toHaveLength(2);
    for (const count of live) expect(count).toBeGreaterThan(0);

    const wrongSecret = token.slice(0, -4) + (token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect(await semanticRowsAs(wrongSecret, description)).toEqual([0, 0]);

    await env.DB.prepare('UPDATE api_keys SET revoked_at = ?1 WHERE id = ?2').bind(new Date().toISOString(), keyId).run();
    try {
      expect(await semanticRowsAs(token, description)).toEqual([0, 0]);
    } finally {
      await env.DB.prepare('UPDATE api_keys SET revoked_at = NULL WHERE id = ?1').bind(keyId).run();
    }
  });
});
