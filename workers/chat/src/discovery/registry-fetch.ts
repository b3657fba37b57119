/**
 * A registry API call with the caller's own key (so the caller sees what its key may see): through the
 * service binding when there is one, else at REGISTRY_URL.
 */
export function registryFetch(env: ChatEnv, token: string, path: string, init: RequestInit): Promise<Response> {
  const headers = { ...init.headers, authorization: `Bearer ${token}`, accept: 'application/json' };
  return env.REGISTRY_API
    ? env.REGISTRY_API.fetch(`https://registry.internal${path}`, { ...init, headers })
    : fetch(`${env.REGISTRY_URL.replace(/\/+$/, '')}${path}`, { ...init, headers });
}
