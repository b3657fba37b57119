import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentSearchResponse } from '../../schemas/search.ts';
import worker from '../../workers/registry/src/index.ts';
import { generateAgents } from './fixtures/corpus/generate.ts';
import type { SeedAgent } from './fixtures/search-seed.ts';
import { seedRegistry } from './fixtures/seeded-registry.ts';
import { StandInIndex } from './fixtures/vector-index-stand-in.ts';

/**
 * The deployed semantic path serves a model of another cosine scale once its floor (SEMANTIC_MIN_SIMILARITY) is set
 * for it. The stand-in model here puts a request and the agent it means at cosine 0.41, in the Universal Sentence
 * Encoder's range rather than bge-small's: each text gets a private dimension beside its topic, so no two different
 * texts are alike. Under bge-small's floor (0.55) it finds nothing by meaning; under its own (0.3) it finds the
 * agent (docs/decisions/0217).
 */
const OWN_FLOOR = '0.3';
/** "pluviax" is a word only the stand-in model knows: deployed, the offline source's hits count too, and it knows "umbrella". */
const TOPICS: Record<string, string[]> = {
  rain: ['rain', 'umbrella', 'pluviax', 'storm', 'forecast'],
  money: ['money', 'budget', 'savings'],
};
const AXES = Object.keys(TOPICS);
/** The private dimension's weight: a same-topic pair's cosine is 1 / (1 + PRIVATE²) = 0.41. */
const PRIVATE = 1.2;
const PRIVATE_DIMENSIONS = 997;

function embedText(text: string): number[] {
  const words = text.toLowerCase().split(/[^a-z]+/);
  const topic = AXES.map((axis) => words.filter((word) => TOPICS[axis]!.includes(word)).length);
  const norm = Math.hypot(...topic) || 1;
  const own = new Array<number>(PRIVATE_DIMENSIONS).fill(0);
  own[[...text].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) % PRIVATE_DIMENSIONS, 7)] = PRIVATE;
  const vector = [...topic.map((value) => value / norm), ...own];
  const length = Math.hypot(...vector);
  return vector.map((value) => value / length);
}

const ai = {
  async run(_model: string, input: { text: string[] }) {
    return { data: input.text.map(embedText) };
  },
};
const index = new StandInIndex();

const [a, b] = [...generateAgents(2, 91)];
const plain = { tags: [], protocols: [], is_active: true, featured: false, recent_interactions: 0, geo_location: null };
const weather: SeedAgent = { ...a!, ...plain, name: 'Sky Watch', description: 'Storm forecast for your city.', readme: '# Sky Watch' };
const budget: SeedAgent = { ...b!, ...plain, name: 'Budget Buddy', description: 'Tracks savings.', readme: '# Budget Buddy' };

let token: string;
async function search(text: string, floor = OWN_FLOOR) {
  const ctx = createExecutionContext();
  const request = new Request('http://registry.test/v1/search/agents', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ search_text: text }),
  });
  const response = await worker.fetch(
    request,
    { ...env, AI: ai as unknown as Ai, VECTORIZE: index as unknown as VectorizeIndex, SEMANTIC_MIN_SIMILARITY: floor },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  expect(response.status).toBe(200);
  return (await response.json()) as AgentSearchResponse;
}

beforeAll(async () => {
  token = (await seedRegistry([weather, budget])).token;
});

describe('semantic search with a model of low cosines', () => {
  it('finds the agent a request means at cosine 0.41 under the floor set for the model, and not the unrelated one', async () => {
    await search('pluviax');
    expect(index.vectors.size).toBe(2);
    const query = embedText('pluviax');
    const [weatherCosine, budgetCosine] = [weather, budget].map((agent) =>
      embedText([agent.name, '', agent.description, agent.readme].join('\n')).reduce((sum, v, i) => sum + v * query[i]!, 0),
    );
    expect(weatherCosine).toBeCloseTo(0.41, 2);
    expect(budgetCosine).toBe(0);
    const found = await search('pluviax');
    expect(found.agents.map((agent) => agent.name)).toEqual([weather.name]);
  });

  it("finds nothing by meaning under bge-small's floor", async () => {
    expect(env.SEMANTIC_MIN_SIMILARITY).toBe('0.55');
    expect((await search('pluviax', env.SEMANTIC_MIN_SIMILARITY)).total).toBe(0);
  });
});
