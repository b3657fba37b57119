import { parametersOf, SchemaComponents, type JsonSchema } from './json-schema.ts';
import type { ApiInfo, RouteDescriptor } from './route.ts';
import { servedOperations, type HonoRoute } from './served-routes.ts';

const SECURITY_SCHEMES = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key (`rdv_…`) from the API keys screen, or the deployment’s admin token where noted.',
  },
  agent: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: '`Agent attr:<payload>:<signature>`: a short-lived attestation signed with the agent’s own key (uagents-core).',
  },
};

function operation(route: RouteDescriptor, components: SchemaComponents): JsonSchema {
  const parameters = [
    ...(route.params ? parametersOf(route.params, 'path') : []),
    ...(route.query ? parametersOf(route.query, 'query') : []),
  ];
  const responses = Object.fromEntries(
    Object.entries(route.responses).map(([status, response]) => {
      const content: Record<string, JsonSchema> = {};
      if (response.schema) content[response.contentType ?? 'application/json'] = { schema: components.ref(response.schema, 'output') };
      else if (response.contentType) content[response.contentType] = {};
      if (response.events) {
        content['text/event-stream'] = {
          schema: { type: 'string', description: '`data: <JSON>` events, each an `x-event-schema` object, then `data: [DONE]`' },
          'x-event-schema': components.ref(response.events, 'output'),
        };
      }
      return [status, { description: response.description, ...(Object.keys(content).length ? { content } : {}) }];
    }),
  );
  return {
    operationId: `${route.method}${route.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.tag],
    security: route.auth === 'none' ? [] : [{ [route.auth]: [] }],
    ...(parameters.length ? { parameters } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: components.ref(route.body, 'input'),
                ...(route.example === undefined ? {} : { example: route.example }),
              },
            },
          },
        }
      : {}),
    responses,
  };
}

/**
 * The OpenAPI 3.1 document of one Worker, from its route descriptors. `served` is the Worker's own routing
 * table (Hono's `app.routes`): a route it serves that no descriptor documents still appears, marked
 * `x-undocumented`, so the document never hides a route (the tests require there be none).
 */
export function openApiDocument(
  info: ApiInfo,
  routes: readonly RouteDescriptor[],
  served: readonly HonoRoute[],
  serverUrl: string,
): JsonSchema {
  const components = new SchemaComponents();
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) paths[route.path] = { ...paths[route.path], [route.method]: operation(route, components) };
  for (const { method, path } of servedOperations(served)) {
    if (paths[path]?.[method]) continue;
    const undocumented = {
      summary: 'Undocumented route',
      'x-undocumented': true,
      responses: { default: { description: 'not documented' } },
    };
    paths[path] = { ...paths[path], [method]: undocumented };
  }
  const tags = [...new Set(routes.map((route) => route.tag))].map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info,
    servers: [{ url: serverUrl }],
    tags,
    paths,
    components: { schemas: components.schemas, securitySchemes: SECURITY_SCHEMES },
  };
}
