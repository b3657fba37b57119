import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentSearchResponse } from '../../schemas/search.ts';
import worker from '../../workers/registry/src/index.ts';
import { generateAgents } from './fixtures/corpus/generate.ts';
import type { SeedAgent } from './fixtures/search-seed.ts';
import { seedRegistry } from './fixtures/seeded-registry.ts';
import { StandInIndex } from './fixtures/vector-index-stand-in.ts';

/**
 * The deployed semantic path's floor (SEMANTIC_MIN_SIMILARITY, 0.55 for bge-small) is a calibration of the model:
 * a request that means nothing finds nothing by meaning. The stand-in model here is shaped like bge-small: a
 * component every text shares puts unrelated texts near 0.45–0.5, their words (hashed into a few dimensions) move
 * them a little, and a shared topic lifts related texts well above 0.55. A floor relative to the query's own
 * neighbours listed the agents that were merely least unrelated to gibberish (docs/decisions/0217).
 */
/** "pluviax" is a word only the stand-in model knows: deployed, the offline source's hits count too, and it knows "umbrella". */
const TOPICS: Record<string, string[]> = {
  rain: ['rain', 'umbrella', 'pluviax', 'storm', 'forecast'],
  money: ['money', 'budget', 'savings'],
};
const AXES = Object.keys(TOPICS);
const [SHARED, TOPIC, WORDS] = [1, 1.2, 0.8];
const WORD_DIMENSIONS = 32;

function unit(vector: number[]): number[] {
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((value) => value / norm);
}

function embedText(text: string): number[] {
  const words = text
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);
  const topic = unit(AXES.map((axis) => words.filter((word) => TOPICS[axis]!.includes(word)).length));
  const hashed = new Array<number>(WORD_DIMENSIONS).fill(0);
  for (const word of words) hashed[[...word].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) % WORD_DIMENSIONS, 7)]! += 1;
  return unit([SHARED, ...topic.map((value) => value * TOPIC), ...unit(hashed).map((value) => value * WORDS)]);
}

const ai = {
  async run(_model: string, input: { text: string[] }) {
    return { data: input.text.map(embedText) };
  },
};
const index = new StandInIndex();

const [a, b, c] = [...generateAgents(3, 93)];
const plain = { tags: [], protocols: [], is_active: true, featured: false, recent_interactions: 0, geo_location: null };
const weather: SeedAgent = { ...a!, ...plain, name: 'Sky Watch', description: 'Storm forecast for your city.', readme: '# Sky Watch' };
const budget: SeedAgent = { ...b!, ...plain, name: 'Budget Buddy', description: 'Tracks savings.', readme: '# Budget Buddy' };
const rain: SeedAgent = { ...c!, ...plain, name: 'Rain Gauge', description: 'Rain by the hour.', readme: '# Rain Gauge' };
const GIBBERISH = 'zorblax quindle frumious';

let token: string;
async function search(text: string) {
  const ctx = createExecutionContext();
  const request = new Request('http://registry.test/v1/search/agents', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ search_text: text }),
  });
  const response = await worker.fetch(request, { ...env, AI: ai as unknown as Ai, VECTORIZE: index as unknown as VectorizeIndex }, ctx);
  await waitOnExecutionContext(ctx);
  expect(response.status).toBe(200);
  return (await response.json()) as AgentSearchResponse;
}

const cosine = (x: number[], y: number[]) => x.reduce((sum, value, i) => sum + value * y[i]!, 0);
const agentVector = (agent: SeedAgent) => embedText([agent.name, '', agent.description, agent.readme].join('\n'));

beforeAll(async () => {
  token = (await seedRegistry([weather, budget, rain])).token;
  await search(GIBBERISH);
  expect(index.vectors.size).toBe(3);
});

describe('semantic search under bge-small floor', () => {
  it('lists no agent for gibberish, though some agents are closer to it than others', async () => {
    const cosines = [weather, budget, rain].map((agent) => cosine(embedText(GIBBERISH), agentVector(agent)));
    expect(Math.max(...cosines)).toBeLessThan(0.55);
    expect(Math.max(...cosines)).toBeGreaterThan(Math.min(...cosines));
    const found = await search(GIBBERISH);
    expect(found.agents).toEqual([]);
    expect(found.total).toBe(0);
  });

  it('still finds by meaning what a request means', async () => {
    expect(cosine(embedText('pluviax'), agentVector(weather))).toBeGreaterThan(0.55);
    const found = await search('pluviax');
    expect(found.agents.map((agent) => agent.name).sort()).toEqual([rain.name, weather.name].sort());
  });
});
