import { almanacRecordSchema } from '../../../../schemas/registry.ts';

/** How long an answer is trusted: a registered agent is asked again after a minute, a refused one after 30 s. */
const REGISTERED_SECONDS = 60;
const UNREGISTERED_SECONDS = 30;

/** Per isolate: each sender is looked up once while the answer is fresh, not once per message. */
const cache = new Map<string, { registered: boolean; until: number }>();
const CACHE_MAX_ENTRIES = 10_000;

class SenderCheckError extends Error {
  override name = 'SenderCheckError';
}

/** Lookups under way: concurrent messages of one sender (a burst of the router's users) share one. */
const inFlight = new Map<string, Promise<boolean>>();

/**
 * Whether `address` is an agent registered in the registry under an account (the router, a Python agent
 * that registered with a key): the public almanac says so. An address the almanac does not know is not.
 */
export function isRegisteredSender(registryUrl: string, address: string, doFetch: typeof fetch = fetch): Promise<boolean> {
  const base = registryUrl.replace(/\/+$/, '');
  const key = `${base} ${address}`;
  const cached = cache.get(key);
  if (cached && cached.until > Date.now()) return Promise.resolve(cached.registered);
  let pending = inFlight.get(key);
  if (!pending) {
    pending = lookUp(base, address, doFetch)
      .then((registered) => {
        if (cache.size >= CACHE_MAX_ENTRIES) cache.clear();
        cache.set(key, { registered, until: Date.now() + (registered ? REGISTERED_SECONDS : UNREGISTERED_SECONDS) * 1000 });
        return registered;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}

async function lookUp(base: string, address: string, doFetch: typeof fetch): Promise<boolean> {
  const response = await doFetch(`${base}/v1/almanac/agents/${encodeURIComponent(address)}`, { headers: { accept: 'application/json' } });
  if (response.status === 404) {
    await response.body?.cancel();
    return false;
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new SenderCheckError(`almanac lookup of ${address} answered ${response.status}`);
  }
  const record = almanacRecordSchema.safeParse(await response.json().catch(() => null));
  if (!record.success) throw new SenderCheckError(`almanac lookup of ${address} answered with an unexpected body`);
  return record.data.registered;
}
