import { ExactCosineIndex } from './exact-cosine-index.ts';

/**
 * The deployed semantic path with the deployed model: Workers AI answered by Cloudflare's REST API (the same model,
 * the same `{ shape, data }` result the binding gives), and an exact index for Vectorize. For whoever can reach the
 * API: `CLOUDFLARE_ACCOUNT_ID` and `CLOUDFLARE_API_TOKEN` (a token with Workers AI read, as wrangler names them);
 * `CLOUDFLARE_API_BASE_URL` points elsewhere (an AI Gateway, a local fake). The floor is the registry's own
 * (semantic.ts: 0.55 for bge-small) unless `BENCH_SEMANTIC_MIN_SIMILARITY` sweeps it.
 */

/** Texts per call: Workers AI's embedding models take at most 100. */
const REST_BATCH = 100;
/** Attempts per call, waiting 2^n seconds after a 429 or a 5xx (the API's rate limit is per account). */
const ATTEMPTS = 5;

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`BENCH_RELEVANCE_SEMANTIC=workers-ai needs ${name}`);
  return value;
}

/**
 * One call, tried again after a dropped connection, a 429 or a 5xx. A call that still fails ends the run: the search
 * would fall back to the offline source (semantic-source.ts), and its figures would not be the deployed path's.
 */
async function runRest(url: string, token: string, text: string[]): Promise<number[][]> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    }).catch((error: unknown) => error as Error);
    const retryable = response instanceof Error || response.status === 429 || response.status >= 500;
    if (retryable && attempt < ATTEMPTS) {
      await new Promise((resolve) => setTimeout(resolve, 2 ** attempt * 1000));
      continue;
    }
    if (response instanceof Error) return stop(`Workers AI unreachable: ${response.message}`);
    const body = (await response.json().catch(() => null)) as {
      success?: boolean;
      result?: { data?: number[][] };
      errors?: unknown;
    } | null;
    const data = body?.result?.data;
    if (response.ok && body?.success && Array.isArray(data) && data.length === text.length) return data;
    return stop(`Workers AI answered ${response.status}: ${JSON.stringify(body?.errors ?? body)}`);
  }
}

function stop(reason: string): never {
  console.error(`${reason}\nbench:relevance stopped: without Workers AI the figures would not be the deployed path's`);
  process.exit(1);
}

/** `AI.run(model, { text })` as the binding answers it, by the REST API; query embeddings are kept by text. */
export function workersAiRestBindings(): { AI: unknown; VECTORIZE: ExactCosineIndex; SEMANTIC_MIN_SIMILARITY?: string } {
  const account = required('CLOUDFLARE_ACCOUNT_ID');
  const token = required('CLOUDFLARE_API_TOKEN');
  const base = process.env.CLOUDFLARE_API_BASE_URL ?? 'https://api.cloudflare.com/client/v4';
  const known = new Map<string, Map<string, number[]>>();
  const AI = {
    async run(model: string, { text }: { text: string[] }) {
      const byText = known.get(model) ?? new Map<string, number[]>();
      known.set(model, byText);
      const missing = [...new Set(text.filter((t) => !byText.has(t)))];
      const url = `${base}/accounts/${encodeURIComponent(account)}/ai/run/${model}`;
      for (let i = 0; i < missing.length; i += REST_BATCH) {
        const batch = missing.slice(i, i + REST_BATCH);
        const vectors = await runRest(url, token, batch);
        for (const [j, t] of batch.entries()) byText.set(t, vectors[j]!);
      }
      const data = text.map((t) => byText.get(t)!);
      return { shape: [data.length, data[0]?.length ?? 0], data };
    },
  };
  const floor = process.env.BENCH_SEMANTIC_MIN_SIMILARITY;
  return { AI, VECTORIZE: new ExactCosineIndex(), ...(floor === undefined ? {} : { SEMANTIC_MIN_SIMILARITY: floor }) };
}
