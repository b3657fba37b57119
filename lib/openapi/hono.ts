import { Hono } from 'hono';
import { docsPage, DOCS_CSP } from './docs-page.ts';
import { openApiDocument } from './document.ts';
import type { ApiInfo, RouteDescriptor } from './route.ts';
import type { HonoRoute } from './served-routes.ts';

export const OPENAPI_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';

/**
 * `GET /openapi.json` and `GET /docs` for a Worker's app. `served` is the app itself (read at request
 * time, when every route is registered) so the document also lists any route no descriptor covers.
 */
export function apiDocs(served: { routes: readonly HonoRoute[] }, info: ApiInfo, routes: readonly RouteDescriptor[]) {
  // One cached document: its server URL is the origin it was asked for, which is one origin per deployment.
  let cached: { origin: string; document: object } | undefined;
  return new Hono()
    .get(OPENAPI_PATH, (c) => {
      const origin = new URL(c.req.url).origin;
      if (cached?.origin !== origin) cached = { origin, document: openApiDocument(info, routes, served.routes, origin) };
      return c.json(cached.document);
    })
    .get(DOCS_PATH, (c) => c.html(docsPage(info.title, OPENAPI_PATH), 200, { 'content-security-policy': DOCS_CSP }));
}
