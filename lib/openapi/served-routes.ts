import type { HttpMethod } from './route.ts';

/** What Hono keeps of each registration (`app.routes`): middleware shows as method `ALL` or a `*` path. */
export interface HonoRoute {
  method: string;
  path: string;
}

const METHODS = new Set<string>(['get', 'post', 'put', 'patch', 'delete']);

/** `/v2/agents/:address{[a-z0-9]+}` → `/v2/agents/{address}` */
function openApiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, '{$1}').replace(/(.)\/$/, '$1');
}

/** The operations an app serves (method and OpenAPI path), without its middleware, each once. */
export function servedOperations(routes: readonly HonoRoute[]): { method: HttpMethod; path: string }[] {
  const seen = new Map<string, { method: HttpMethod; path: string }>();
  for (const route of routes) {
    const method = route.method.toLowerCase();
    if (!METHODS.has(method) || route.path.includes('*')) continue;
    const path = openApiPath(route.path);
    seen.set(`${method} ${path}`, { method: method as HttpMethod, path });
  }
  return [...seen.values()];
}
