import { healthSchema } from '../../schemas/http.ts';
import { DOCS_PATH, OPENAPI_PATH } from './hono.ts';
import type { RouteDescriptor } from './route.ts';

/** The routes every Worker serves about itself: health, this document and its reference page. */
export const SERVICE_ROUTES: readonly RouteDescriptor[] = [
  {
    method: 'get',
    path: '/health',
    tag: 'Service',
    auth: 'none',
    summary: 'Liveness of the Worker',
    responses: { 200: { description: 'The Worker answers', schema: healthSchema } },
  },
  {
    method: 'get',
    path: OPENAPI_PATH,
    tag: 'Service',
    auth: 'none',
    summary: 'This document (OpenAPI 3.1)',
    responses: { 200: { description: 'The OpenAPI document', contentType: 'application/json' } },
  },
  {
    method: 'get',
    path: DOCS_PATH,
    tag: 'Service',
    auth: 'none',
    summary: 'Interactive API reference (this page)',
    responses: { 200: { description: 'A self-contained HTML page', contentType: 'text/html' } },
  },
];
