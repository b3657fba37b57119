import { almanacRecordSchema } from '../../schemas/registry.ts';

/** Turns an agent address into the webhook URLs to try, best first. */
export interface EndpointResolver {
  resolve(address: string): Promise<string[]>;
  /** Forget what is known of an address (called after a failed delivery, so the next attempt looks again). */
  invalidate(address: string): void;
}

export class UnknownAgentError extends Error {
  override name = 'UnknownAgentError';
}

const CACHE_SECONDS = 300;
/**
 * Addresses whose answer an isolate keeps. An agent sends to a few peers; one that answers whoever writes to it
 * would otherwise keep an entry for every address it ever sent to, for as long as its isolate lives.
 */
export const ALMANAC_CACHE_MAX = 1000;

/** Per isolate: almanac answers are shared by every request the isolate serves; least recently used first. */
const almanacCache = new Map<string, { urls: string[]; until: number }>();

function cachedUrls(key: string): string[] | null {
  const cached = almanacCache.get(key);
  if (!cached) return null;
  almanacCache.delete(key);
  if (cached.until <= Date.now()) return null;
  // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
  almanacCache.set(key, cached);
  return cached.urls;
}

function cacheUrls(key: string, urls: string[]): void {
  almanacCache.delete(key);
  if (almanacCache.size >= ALMANAC_CACHE_MAX) almanacCache.delete(almanacCache.keys().next().value!);
  almanacCache.set(key, { urls, until: Date.now() + CACHE_SECONDS * 1000 });
}

/** Lookups under way: concurrent sends to one agent (a burst of users) share one. */
const lookups = new Map<string, Promise<string[]>>();

/**
 * The registry's almanac: `GET {registry}/v1/almanac/agents/{address}` (public, as the SDKs call it) →
 * `endpoints[].url` by weight, else `url`. Answers are cached for five minutes, for at most ALMANAC_CACHE_MAX addresses.
 */
export class AlmanacResolver implements EndpointResolver {
  private readonly registryUrl: string;

  constructor(
    registryUrl: string,
    private readonly doFetch: typeof fetch = fetch,
  ) {
    this.registryUrl = registryUrl.replace(/\/+$/, '');
  }

  resolve(address: string): Promise<string[]> {
    const key = `${this.registryUrl} ${address}`;
    const cached = cachedUrls(key);
    if (cached) return Promise.resolve(cached);
    let pending = lookups.get(key);
    if (!pending) {
      pending = this.lookUp(address)
        .then((urls) => {
          cacheUrls(key, urls);
          return urls;
        })
        .finally(() => lookups.delete(key));
      lookups.set(key, pending);
    }
    return pending;
  }

  private async lookUp(address: string): Promise<string[]> {
    const response = await this.doFetch(`${this.registryUrl}/v1/almanac/agents/${encodeURIComponent(address)}`, {
      headers: { accept: 'application/json' },
    });
    if (response.status === 404) {
      await response.body?.cancel();
      throw new UnknownAgentError(`${address} is not in the registry's almanac`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`almanac lookup of ${address} answered ${response.status}`);
    }
    const record = almanacRecordSchema.safeParse(await response.json().catch(() => null));
    if (!record.success) throw new Error(`almanac lookup of ${address} answered with an unexpected body`);
    const weighted = [...record.data.endpoints].sort((a, b) => b.weight - a.weight).map((endpoint) => endpoint.url);
    const urls = weighted.length ? weighted : record.data.url ? [record.data.url] : [];
    if (!urls.length) throw new UnknownAgentError(`${address} has no endpoint in the almanac`);
    return urls;
  }

  invalidate(address: string): void {
    almanacCache.delete(`${this.registryUrl} ${address}`);
  }
}

/** A fixed address → URL table (a closed deployment, or a benchmark without a registry). */
export class StaticResolver implements EndpointResolver {
  constructor(private readonly table: Readonly<Record<string, string | string[]>>) {}

  async resolve(address: string): Promise<string[]> {
    const entry = this.table[address];
    if (!entry) throw new UnknownAgentError(`${address} is not in the endpoint table`);
    return Array.isArray(entry) ? entry : [entry];
  }

  invalidate(): void {}
}
