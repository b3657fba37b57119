import { checkOutboundUrl, type UrlCheck, type UrlPolicy } from './url-policy.ts';

/** What `policyFetch` answers: the final response, or why a hop was not called. */
export type PolicyFetchResult = { ok: true; response: Response; url: URL } | (Extract<UrlCheck, { ok: false }> & { url: string });

export interface PolicyFetchOptions {
  policy: UrlPolicy;
  /** Redirects followed, each hop checked against the policy; 0 answers a redirect as it came. Default 0. */
  maxRedirects?: number;
  /** The fetch to call (tests and agents inject one); the global fetch by default. */
  fetch?: typeof fetch;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * The one way the platform calls a URL someone else chose (delivery, probes, the proxy, hosting): every hop
 * passes the URL policy and redirects are never followed by the runtime (`redirect: 'manual'`), so a public
 * URL cannot bounce a request to a private one. Bodies must be replayable (strings) when redirects are followed.
 */
export async function policyFetch(target: string, init: RequestInit, options: PolicyFetchOptions): Promise<PolicyFetchResult> {
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, requestInit?: RequestInit) => fetch(input, requestInit));
  let redirectsLeft = options.maxRedirects ?? 0;
  let next = target;
  let hopInit: RequestInit = { ...init, redirect: 'manual' };
  for (;;) {
    const check = checkOutboundUrl(next, options.policy);
    if (!check.ok) return { ...check, url: next };
    const response = await doFetch(check.url.href, hopInit);
    const location = response.headers.get('location');
    if (!REDIRECT_STATUSES.has(response.status) || location === null || redirectsLeft <= 0) return { ok: true, response, url: check.url };
    await response.body?.cancel();
    redirectsLeft -= 1;
    try {
      next = new URL(location, check.url).href;
    } catch {
      return { ok: false, reason: 'invalid_url', message: `${check.url.host} redirected to an unreadable location`, url: location };
    }
    // As browsers do: 303, and 301/302 after a POST, continue as a GET without a body.
    const method = (hopInit.method ?? 'GET').toUpperCase();
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      hopInit = { ...hopInit, method: method === 'HEAD' ? 'HEAD' : 'GET', body: undefined };
    }
  }
}
