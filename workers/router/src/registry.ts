export class RegistryError extends Error {}

const RETRY_DELAY_MS = 250;

/**
 * A call to the registry with the router's key. Reads change nothing, so one that met a passing failure (a
 * restarting registry) is asked again once. The error message is for logs; callers answer clients with codes.
 */
export async function callRegistry(
  env: RouterEnv,
  path: string,
  init: { method: 'GET' } | { method: 'POST'; body: unknown },
): Promise<unknown> {
  const request = () =>
    fetch(new URL(path, env.REGISTRY_URL), {
      method: init.method,
      headers: {
        Authorization: `Bearer ${env.REGISTRY_API_KEY}`,
        ...(init.method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
      },
      body: init.method === 'POST' ? JSON.stringify(init.body) : undefined,
    });
  let response: Response;
  try {
    response = await request();
    if (response.status >= 500) {
      await response.body?.cancel();
      await scheduler.wait(RETRY_DELAY_MS);
      response = await request();
    }
  } catch (error) {
    throw new RegistryError(`registry at ${env.REGISTRY_URL} is unreachable: ${(error as Error).message}`);
  }
  if (!response.ok)
    throw new RegistryError(`registry ${init.method} ${path} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  const body: unknown = await response.json().catch(() => undefined);
  if (body === undefined) throw new RegistryError(`registry ${init.method} ${path} answered with a body that is not JSON`);
  return body;
}
