import type { ZodType } from 'zod';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** How a route authenticates: a bearer API key (or the admin token), an agent's signed attestation, or not at all. */
type RouteAuth = 'bearer' | 'agent' | 'none';

export interface ResponseDescriptor {
  description: string;
  /** JSON body; absent for bodies that are not JSON (see `contentType`). */
  schema?: ZodType;
  /** Default `application/json` when there is a schema. */
  contentType?: string;
  /** Also answered as server-sent events (when the request asks to stream): each `data:` event is one of these. */
  events?: ZodType;
}

/** One documented operation. `path` is in OpenAPI form (`/v1/keys/{id}`); schemas are the routes' own zod schemas. */
export interface RouteDescriptor {
  method: HttpMethod;
  path: string;
  summary: string;
  description?: string;
  tag: string;
  auth: RouteAuth;
  params?: ZodType;
  query?: ZodType;
  body?: ZodType;
  /** Example request body shown (and sent) by the docs page. */
  example?: unknown;
  responses: Record<number, ResponseDescriptor>;
}

export interface ApiInfo {
  title: string;
  version: string;
  description: string;
}
