import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { AgentSearchResponse } from '../../schemas/search.ts';
import worker from '../../workers/registry/src/index.ts';
import { generateAgents } from './fixtures/corpus/generate.ts';
import { accountWithKey, insertAgents, type SeedAgent } from './fixtures/search-seed.ts';
import { seedRegistry } from './fixtures/seeded-registry.ts';
import { StandInIndex } from './fixtures/vector-index-stand-in.ts';

/**
 * The deployed path of semantic_search (Workers AI embeddings + Vectorize), with both bindings replaced by
 * stand-ins passed to the Worker's fetch: an embedder that maps words to a few concepts, and an in-memory
 * vector index with cosine similarity.
 */
/** "pluviax" is a word only the stand-in model knows: deployed, the offline source's hits count too, and it knows "umbrella". */
const CONCEPTS: Record<string, string[]> = {
  rain: ['rain', 'umbrella', 'pluviax', 'weather', 'storm', 'forecast', 'drizzle'],
  money: ['money', 'budget', 'savings', 'finance', 'spend'],
  food: ['food', 'recipe', 'dinner', 'hungry', 'cook'],
};
const AXES = Object.keys(CONCEPTS);

function embedText(text: string): number[] {
  const words = text.toLowerCase().split(/[^a-z]+/);
  const vector = AXES.map((axis) => words.filter((word) => CONCEPTS[axis]!.includes(word)).length);
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

const [a, b, c] = [...generateAgents(3, 77)];
const plain = { tags: [], protocols: [], is_active: true, featured: false, recent_interactions: 0, geo_location: null };
const weather: SeedAgent = {
  ...a!,
  ...plain,
  name: 'Sky Watch',
  description: 'Rain and storm forecast for your city.',
  readme: '# Sky Watch\n\nWeather forecast.',
};
const budget: SeedAgent = { ...b!, ...plain, name: 'Budget Buddy', description: 'Tracks spend and savings.', readme: '# Budget Buddy' };
const chef: SeedAgent = {
  ...c!,
  ...plain,
  name: 'Pantry Chef',
  description: 'Dinner ideas from your pantry; a recipe when hungry.',
  readme: '# Pantry Chef',
};

let token: string;
const index = new StandInIndex();
let failEmbedding = false;
const ai = {
  async run(model: string, input: { text: string[] }) {
    if (failEmbedding) throw new Error('Workers AI unavailable');
    expect(model).toBe('@cf/baai/bge-small-en-v1.5');
    return { data: input.text.map(embedText) };
  },
};

async function search(body: Record<string, unknown>) {
  const ctx = createExecutionContext();
  const request = new Request('http://registry.test/v1/search/agents', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const response = await worker.fetch(request, { ...env, AI: ai as unknown as Ai, VECTORIZE: index as unknown as VectorizeIndex }, ctx);
  await waitOnExecutionContext(ctx);
  expect(response.status).toBe(200);
  return {
    mode: response.headers.get('x-search-mode'),
    source: response.headers.get('x-semantic-source'),
    body: (await response.json()) as AgentSearchResponse,
  };
}

beforeAll(async () => {
  token = (await seedRegistry([weather, budget, chef])).token;
});

describe('semantic_search with Workers AI and Vectorize', () => {
  it('embeds agents in the background after a semantic search, then finds them by meaning', async () => {
    const first = await search({ search_text: 'pluviax', semantic_search: true });
    expect(first.mode).toBe('hybrid');
    expect(first.body.total).toBe(0);
    expect(index.vectors.size).toBe(3);

    const second = await search({ search_text: 'pluviax', semantic_search: true });
    expect(second.body.agents.map((agent) => agent.name)).toEqual([weather.name]);
    expect(second.body.total).toBe(1);
    // Lexical search alone has no match for the same text; the default search is the hybrid one, through Vectorize.
    expect((await search({ search_text: 'pluviax', semantic_search: false })).body.total).toBe(0);
    const byDefault = await search({ search_text: 'pluviax' });
    expect(byDefault.mode).toBe('hybrid');
    expect(byDefault.body.agents.map((agent) => agent.name)).toEqual([weather.name]);
  });

  it('fuses lexical and semantic ranks: an agent found both ways comes first', async () => {
    const found = await search({ search_text: 'budget dinner recipe', semantic_search: true });
    expect(found.body.agents.map((agent) => agent.name)).toEqual([chef.name, budget.name]);
  });

  it('re-embeds changed agents and drops deleted ones', async () => {
    await env.DB.prepare(
      "UPDATE agents SET description = 'Savings goals and budget alerts.', readme = '# Budget Buddy', last_updated = ? WHERE address = ?",
    )
      .bind(new Date().toISOString(), budget.address)
      .run();
    await env.DB.prepare('DELETE FROM agents WHERE address = ?').bind(chef.address).run();
    await search({ search_text: 'savings', semantic_search: true });
    expect(index.vectors.size).toBe(2);
    expect((await search({ search_text: 'hungry', semantic_search: true })).body.total).toBe(0);
  });

  it('stays hybrid with the offline source when Workers AI fails, and says only that source answered', async () => {
    const healthy = await search({ search_text: 'will I need my umbrella this afternoon', semantic_search: true });
    expect(healthy.source).toBe('vectorize');
    failEmbedding = true;
    // Everyday words no field of the agent holds: only a semantic source finds it, here the offline one alone.
    const outage = await search({ search_text: 'will I need my umbrella this afternoon', semantic_search: true });
    const words = await search({ search_text: 'storm forecast', semantic_search: true });
    failEmbedding = false;
    expect(outage.mode).toBe('hybrid');
    expect(outage.source).toBe('offline');
    expect(outage.body.agents.map((agent) => agent.name)).toEqual([weather.name]);
    expect(words.mode).toBe('hybrid');
    expect(words.source).toBe('offline');
    expect(words.body.agents[0]?.name).toBe(weather.name);
    expect((await search({ search_text: 'will I need my umbrella this afternoon', semantic_search: false })).body.total).toBe(0);
  });

  it('stays hybrid with the offline source when Vectorize fails', async () => {
    const query = vi.spyOn(index, 'query').mockRejectedValue(new Error('Vectorize unavailable'));
    const outage = await search({ search_text: 'will I need my umbrella this afternoon', semantic_search: true });
    query.mockRestore();
    expect(outage.mode).toBe('hybrid');
    expect(outage.source).toBe('offline');
    expect(outage.body.agents.map((agent) => agent.name)).toEqual([weather.name]);
  });

  it('the cron keeps the vectors current: a new agent is embedded without any semantic search', async () => {
    const [d] = [...generateAgents(1, 78)];
    const umbrellas: SeedAgent = {
      ...d!,
      ...plain,
      name: 'Umbrella Rental',
      description: 'Rent an umbrella before the storm.',
      readme: '# Umbrella Rental',
    };
    const owner = await accountWithKey(env.DB);
    await insertAgents(env.DB, owner.accountId, [umbrellas]);
    const before = index.vectors.size;
    // The same run probes the agents' webhooks; they answer here rather than over the network.
    const probe = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response('ok'));
    const ctx = createExecutionContext();
    await worker.scheduled(
      createScheduledController({ scheduledTime: Date.now(), cron: '*/5 * * * *' }),
      { ...env, AI: ai as unknown as Ai, VECTORIZE: index as unknown as VectorizeIndex },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    probe.mockRestore();
    expect(index.vectors.size).toBe(before + 1);
    const row = await env.DB.prepare('SELECT vector_id FROM search_embeddings WHERE address = ?').bind(umbrellas.address).first();
    expect(row).not.toBeNull();
  });
});
