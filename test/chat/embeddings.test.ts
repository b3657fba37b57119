import { SELF } from 'cloudflare:test';
import { encode } from 'gpt-tokenizer';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddingList } from '../../schemas/embeddings.ts';
import type { EmbeddingModel } from '../../workers/chat/src/config/embedding-models.ts';
import { workersAiEmbedder } from '../../workers/chat/src/embeddings/embedders.ts';
import { createKey, LLM_BASE_URL, openai, post } from './helpers.ts';

const norm = (vector: number[]) => Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i]!, 0) / (norm(a) * norm(b));

async function embedList(token: string, body: Record<string, unknown>): Promise<EmbeddingList> {
  const response = await post('/embeddings', token, body);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as EmbeddingList;
}

async function errorOf(response: Response) {
  return ((await response.json()) as { error: { message: string; param: string | null; code: string | null } }).error;
}

let token: string;
beforeAll(async () => {
  token = (await createKey()).key;
});

describe('POST /v1/embeddings: the offline word vectors', () => {
  it('the official SDK (base64 by default) gets unit vectors of 100 dimensions, with usage', async () => {
    const result = await openai(token).embeddings.create({
      model: 'embed1',
      input: ['rain forecast for tomorrow', 'stock portfolio rebalancing'],
    });
    expect(result.data.map((row) => row.index)).toEqual([0, 1]);
    for (const row of result.data) {
      expect(row.embedding).toHaveLength(100);
      expect(norm(row.embedding)).toBeCloseTo(1, 5);
    }
    expect(result.usage.prompt_tokens).toBe(encode('rain forecast for tomorrow').length + encode('stock portfolio rebalancing').length);
    expect(result.model).toBe('embed1');
  });

  it('places texts by meaning: a weather question is nearer a forecast than a portfolio', async () => {
    const { data } = await embedList(token, {
      model: 'embed1',
      input: ['will it rain in Paris tomorrow', 'weather forecast and precipitation', 'rebalance my stock portfolio'],
      encoding_format: 'float',
    });
    const [question, weather, stocks] = data.map((row) => row.embedding as number[]);
    expect(cosine(question!, weather!)).toBeGreaterThan(cosine(question!, stocks!) + 0.1);
  });

  it('the same text always gets the same vector; base64 holds the same floats', async () => {
    const floats = await embedList(token, { model: 'embed1', input: 'agents find each other here', encoding_format: 'float' });
    const again = await embedList(token, { model: 'embed1', input: 'agents find each other here' });
    const base64 = await embedList(token, { model: 'embed1', input: 'agents find each other here', encoding_format: 'base64' });
    expect(again.data[0]!.embedding).toEqual(floats.data[0]!.embedding);
    const bytes = Uint8Array.from(atob(base64.data[0]!.embedding as string), (char) => char.charCodeAt(0));
    expect(Array.from(new Float32Array(bytes.buffer))).toEqual((floats.data[0]!.embedding as number[]).map((x) => Math.fround(x)));
  });

  it('takes token ids as OpenAI does (o200k)', async () => {
    const byText = await embedList(token, { model: 'embed1', input: 'parcel delivery tracking', encoding_format: 'float' });
    const byTokens = await embedList(token, { model: 'embed1', input: [encode('parcel delivery tracking')], encoding_format: 'float' });
    expect(byTokens.data[0]!.embedding).toEqual(byText.data[0]!.embedding);
  });

  it('dimensions: its own 100 is taken; another length is a 400 naming the model, as its vectors cannot be shortened', async () => {
    expect(
      (await embedList(token, { model: 'embed1', input: 'hi', dimensions: 100, encoding_format: 'float' })).data[0]!.embedding,
    ).toHaveLength(100);
    const response = await post('/embeddings', token, { model: 'embed1', input: 'hi', dimensions: 64 });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error).toMatchObject({ param: 'dimensions', code: 'unsupported_dimensions' });
    expect(error.message).toContain('embed1');
  });

  it('an unknown model is 404 model_not_found; an empty input a 400', async () => {
    const unknown = await post('/embeddings', token, { model: 'text-embedding-9', input: 'hi' });
    expect(unknown.status).toBe(404);
    expect(await errorOf(unknown)).toMatchObject({ param: 'model', code: 'model_not_found' });
    const empty = await post('/embeddings', token, { model: 'embed1', input: [] });
    expect(empty.status).toBe(400);
    expect((await errorOf(empty)).param).toBe('input');
  });

  it('more than 2048 inputs is a 400 saying so, not that a string was expected', async () => {
    const response = await post('/embeddings', token, { model: 'embed1', input: Array.from({ length: 2049 }, () => 'a') });
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ param: 'input', message: 'input: Too big: expected array to have <=2048 items' });
  });

  it('is metered against the key, by model, with the rate-limit headers', async () => {
    const own = (await createKey()).key;
    const response = await post('/embeddings', own, { model: 'embed1', input: 'metered words' });
    expect(response.headers.get('x-ratelimit-remaining-requests')).toBeTruthy();
    const report = (await (await SELF.fetch(`${LLM_BASE_URL}/usage`, { headers: { authorization: `Bearer ${own}` } })).json()) as {
      by_model: { model: string; prompt_tokens: number }[];
    };
    expect(report.by_model).toEqual([expect.objectContaining({ model: 'embed1', prompt_tokens: encode('metered words').length })]);
  });

  it('needs a key', async () => {
    expect((await post('/embeddings', null, { model: 'embed1', input: 'hi' })).status).toBe(401);
  });
});

describe('Workers AI embeddings (a stand-in AI binding: it is always remote)', () => {
  const model: EmbeddingModel = {
    alias: 'embed1',
    provider: 'workers-ai',
    model: '@cf/baai/bge-base-en-v1.5',
    dimensions: 4,
    shortenable: false,
  };
  const signal = new AbortController().signal;

  it('sends the texts as `text` and takes `data` in order', async () => {
    const calls: unknown[] = [];
    const embed = workersAiEmbedder(model, {
      async run(name, inputs) {
        calls.push({ name, inputs });
        return {
          shape: [2, 4],
          data: [
            [1, 0, 0, 0],
            [0, 1, 0, 0],
          ],
        };
      },
    });
    expect(await embed(['a', 'b'], signal)).toEqual([
      [1, 0, 0, 0],
      [0, 1, 0, 0],
    ]);
    expect(calls).toEqual([{ name: '@cf/baai/bge-base-en-v1.5', inputs: { text: ['a', 'b'] } }]);
  });

  it('an answer of the wrong shape is a 503, a capacity error a 429', async () => {
    const wrong = workersAiEmbedder(model, { run: async () => ({ shape: [1, 3], data: [[1, 2, 3]] }) });
    await expect(wrong(['a'], signal)).rejects.toMatchObject({ status: 503 });
    const busy = workersAiEmbedder(model, {
      run: async () => {
        throw new Error('3040: Capacity temporarily exceeded');
      },
    });
    await expect(busy(['a'], signal)).rejects.toMatchObject({ status: 429, code: 'capacity_exceeded' });
  });
});
