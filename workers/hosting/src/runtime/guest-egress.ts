import { checkOutboundUrl, policyFetch, type PolicyFetchResult, type UrlPolicy } from '../../../../lib/net/index.ts';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Hosted code's egress policy: public hosts only, whatever ALLOW_PRIVATE_URLS says for the platform's own
 * calls (local development sets it, and loopback there holds the stack's other Workers and their inspectors:
 * issue 22). The platform's own origins are refused too: hosted code talks to agents through `ctx.send`.
 */
export function guestUrlPolicy(env: Pick<HostingEnv, 'PUBLIC_URL' | 'REGISTRY_URL'>): UrlPolicy {
  const refusedHosts = [env.PUBLIC_URL, env.REGISTRY_URL].flatMap((text) => {
    try {
      return [new URL(text).host];
    } catch {
      return [];
    }
  });
  return { allowPrivate: false, refusedHosts };
}

/**
 * One hop of a hosted agent's request, through lib/net's policyFetch. The guest's runtime follows redirects
 * itself, each hop coming back through here; a redirect is still judged here, so that a Location the policy
 * refuses (loopback, credentials) is refused at the hop that names it rather than handed back to the guest.
 */
export async function guestFetch(request: Request, policy: UrlPolicy): Promise<PolicyFetchResult> {
  const init: RequestInit = { method: request.method, headers: request.headers, body: request.body };
  const result = await policyFetch(request.url, init, { policy, maxRedirects: 0 });
  if (!result.ok) return result;
  const location = result.response.headers.get('location');
  if (!REDIRECT_STATUSES.has(result.response.status) || location === null) return result;
  const hop = checkOutboundUrl(new URL(location, result.url).href, policy);
  if (hop.ok) return result;
  await result.response.body?.cancel();
  return { ...hop, message: `${result.url.host} redirected to a URL that is refused: ${hop.message}`, url: location };
}
