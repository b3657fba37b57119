export { apiDocs, DOCS_PATH, OPENAPI_PATH } from './hono.ts';
export { openApiDocument } from './document.ts';
export { docsPage } from './docs-page.ts';
export { parametersOf, SchemaComponents, toJsonSchema, type JsonSchema } from './json-schema.ts';
export type { ApiInfo, HttpMethod, ResponseDescriptor, RouteAuth, RouteDescriptor } from './route.ts';
export { openApiPath, servedOperations, type HonoRoute } from './served-routes.ts';
