/**
 * The fetch of the host's own calls (registration, almanac lookups, message delivery): the registry's URLs
 * go over the REGISTRY_API service binding (Workers of one account reach each other so), others out.
 */
export function platformFetch(env: Pick<HostingEnv, 'REGISTRY_URL' | 'REGISTRY_API'>): typeof fetch {
  const registryOrigin = new URL(env.REGISTRY_URL).origin;
  return (input, init) => {
    const request = new Request(input, init);
    return new URL(request.url).origin === registryOrigin ? env.REGISTRY_API.fetch(request) : fetch(request);
  };
}

export const SUBMIT_PATH = '/v1/hosting/submit';

/** Every hosted agent's endpoint: the platform's submit URL under the registry's public base. */
export function submitUrl(env: Pick<HostingEnv, 'PUBLIC_URL'>): string {
  return `${env.PUBLIC_URL.replace(/\/+$/, '')}${SUBMIT_PATH}`;
}
