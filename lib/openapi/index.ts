export { apiDocs, DOCS_PATH, OPENAPI_PATH } from './hono.ts';
export { openApiDocument } from './document.ts';
export { SERVICE_ROUTES } from './service-routes.ts';
export type { ApiInfo, HttpMethod, ResponseDescriptor, RouteAuth, RouteDescriptor } from './route.ts';
