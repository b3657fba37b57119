export { apiDocs } from './hono.ts';
export { SERVICE_ROUTES } from './service-routes.ts';
export type { ApiInfo, ResponseDescriptor, RouteDescriptor } from './route.ts';
