import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ApiInfo, RouteDescriptor } from '../lib/openapi/index.ts';
import { CHAT_API_INFO, CHAT_ROUTES } from '../workers/chat/src/openapi/api-description.ts';
import { REGISTRY_API_INFO, REGISTRY_ROUTES } from '../workers/registry/src/openapi/api-description.ts';

/**
 * docs/api.md's reference tables, written from the route descriptions each Worker serves as its OpenAPI document
 * (`/openapi.json`, `/docs`): `npm run docs:api` rewrites the parts between the GENERATED markers, and
 * test/node/api-doc.test.ts fails when the committed file differs, so the reference cannot drift from the routes.
 */
const ROOT = resolve(import.meta.dirname, '..');
export const API_DOC = join(ROOT, 'docs/api.md');

const APIS: Record<string, { info: ApiInfo; routes: readonly RouteDescriptor[] }> = {
  registry: { info: REGISTRY_API_INFO, routes: REGISTRY_ROUTES },
  chat: { info: CHAT_API_INFO, routes: CHAT_ROUTES },
};

const AUTH: Record<RouteDescriptor['auth'], string> = { bearer: 'key', agent: 'agent attestation', none: '—' };
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

function routeTable(routes: readonly RouteDescriptor[]): string {
  const tags = [...new Set(routes.map((route) => route.tag))];
  return tags
    .map((tag) => {
      const rows = routes
        .filter((route) => route.tag === tag)
        .map((route) => {
          const answers = Object.entries(route.responses)
            .map(([status, response]) => `${status} ${response.description}`)
            .join('; ');
          const summary = route.description ? `${route.summary}. ${route.description}` : route.summary;
          return `| \`${route.method.toUpperCase()} ${route.path}\` | ${AUTH[route.auth]} | ${cell(summary)} | ${cell(answers)} |`;
        });
      return [`#### ${tag}`, '', '| Route | Auth | What it does | Answers |', '|---|---|---|---|', ...rows].join('\n');
    })
    .join('\n\n');
}

/** The generated block of one API: its description and a table of routes per tag. */
function generatedBlock(name: string): string {
  const { info, routes } = APIS[name]!;
  return `${cell(info.description)}\n\n${routeTable(routes)}`;
}

/** docs/api.md with every GENERATED block written anew from the route descriptions. */
export function renderApiDoc(current: string): string {
  return current.replace(
    /(<!-- GENERATED from the (\w+) Worker's OpenAPI routes by `npm run docs:api`; do not edit -->)\n[\s\S]*?<!-- END GENERATED -->/g,
    (_, open: string, name: string) => `${open}\n${generatedBlock(name)}\n<!-- END GENERATED -->`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(API_DOC, renderApiDoc(readFileSync(API_DOC, 'utf8')));
  console.log(`wrote ${API_DOC}`);
}
