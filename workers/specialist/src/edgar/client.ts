import type { z } from 'zod';
import { keepParsedDocument, parsedDocument } from './parsed-documents.ts';
import type { EdgarRateLimiter } from './rate-limiter.ts';
import {
  companyFactsSchema,
  companyTickersSchema,
  fullTextSearchSchema,
  submissionsSchema,
  type CompanyFacts,
  type CompanyTickers,
  type FullTextSearch,
  type Submissions,
} from './schemas.ts';

interface EdgarConfig {
  /** `https://data.sec.gov` or a copy at the same paths (scripts/dev/edgar-server.ts). */
  baseUrl: string;
  tickersUrl: string;
  searchUrl: string;
  userAgent: string;
  maxRequestsPerSecond: number;
  cacheSeconds: number;
  limiter: DurableObjectStub<EdgarRateLimiter>;
  fetch: typeof fetch;
}

/** EDGAR could not answer. `transient` failures (429, 5xx, network) are worth retrying later. */
export class EdgarError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
    this.name = 'EdgarError';
  }
}

const TIMEOUT_MS = 15_000;
/** Longer than this in the rate limiter's queue means EDGAR is swamped: give up now, retry later. */
const MAX_WAIT_MS = 30_000;

export const paddedCik = (cik: number | string) => String(cik).padStart(10, '0');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** SEC EDGAR's JSON APIs, under the shared rate limit, with the SEC's User-Agent rule, cached. */
export class EdgarClient {
  private readonly inFlight = new Map<string, Promise<string | null>>();

  constructor(private readonly config: EdgarConfig) {}

  async tickers(): Promise<CompanyTickers> {
    const tickers = await this.getJson(this.config.tickersUrl, companyTickersSchema);
    if (!tickers) throw new EdgarError(`the ticker map ${this.config.tickersUrl} was not found`, false);
    return tickers;
  }

  /** The company's profile and recent filings; null when EDGAR has no such company. */
  submissions(cik: number): Promise<Submissions | null> {
    return this.getJson(`${this.config.baseUrl}/submissions/CIK${paddedCik(cik)}.json`, submissionsSchema);
  }

  /** Every XBRL fact the company has filed; null when it has filed none. */
  companyFacts(cik: number): Promise<CompanyFacts | null> {
    return this.getJson(`${this.config.baseUrl}/api/xbrl/companyfacts/CIK${paddedCik(cik)}.json`, companyFactsSchema);
  }

  async fullTextSearch(query: string, forms: string[] = []): Promise<FullTextSearch> {
    const url = new URL(this.config.searchUrl);
    url.searchParams.set('q', query);
    if (forms.length) url.searchParams.set('forms', forms.join(','));
    return (await this.getJson(url.toString(), fullTextSearchSchema)) ?? { hits: { hits: [] } };
  }

  private async getJson<Schema extends z.ZodType>(url: string, schema: Schema): Promise<z.output<Schema> | null> {
    // Each URL is read with one schema (the method that builds it), so what was kept for it is that schema's output
    // (or null: EDGAR does not have it).
    const kept = parsedDocument(url) as z.output<Schema> | null | undefined;
    if (kept !== undefined) return kept;
    const text = await this.cachedGet(url);
    if (text === null) {
      // What EDGAR does not have (a company without XBRL facts) is as lasting as what it has: asked again, it spends SEC budget.
      keepParsedDocument(url, null, url.length, this.config.cacheSeconds);
      return null;
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new EdgarError(`${url} did not answer JSON`, false);
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new EdgarError(`${url} answered an unexpected shape: ${parsed.error.issues[0]?.message}`, false);
    keepParsedDocument(url, parsed.data, text.length, this.config.cacheSeconds);
    return parsed.data;
  }

  /**
   * Cache first; then one request per URL at a time from this client (the analyses of one queue batch
   * share a client, and often the same company), which waits for a token of the shared rate limit.
   * 404 → null.
   */
  private async cachedGet(url: string): Promise<string | null> {
    const cache = await caches.open('edgar');
    const hit = await cache.match(url);
    if (hit) return hit.text();
    let pending = this.inFlight.get(url);
    if (!pending) {
      pending = this.fetchUpstream(url, cache).finally(() => this.inFlight.delete(url));
      this.inFlight.set(url, pending);
    }
    return pending;
  }

  private async fetchUpstream(url: string, cache: Cache): Promise<string | null> {
    const wait = await this.config.limiter.reserve(this.config.maxRequestsPerSecond);
    if (wait > MAX_WAIT_MS) throw new EdgarError(`EDGAR's rate limit queue is ${Math.round(wait / 1000)} s long`, true);
    if (wait > 0) await sleep(wait);

    let response: Response;
    try {
      response = await this.config.fetch(url, {
        headers: { 'User-Agent': this.config.userAgent, Accept: 'application/json' },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      console.error(`specialist: ${url} could not be reached`, error);
      throw new EdgarError('SEC EDGAR could not be reached', true);
    }
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new EdgarError(`${url} answered ${response.status}`, response.status === 429 || response.status >= 500);
    }
    const text = await response.text();
    if (this.config.cacheSeconds > 0) {
      await cache.put(
        url,
        new Response(text, { headers: { 'Content-Type': 'application/json', 'Cache-Control': `max-age=${this.config.cacheSeconds}` } }),
      );
    }
    return text;
  }
}
