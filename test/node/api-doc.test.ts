import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_DOC, renderApiDoc } from '../../scripts/api-doc.ts';
import { CHAT_ROUTES } from '../../workers/chat/src/openapi/api-description.ts';
import { REGISTRY_ROUTES } from '../../workers/registry/src/openapi/api-description.ts';

const committed = readFileSync(API_DOC, 'utf8');

describe('docs/api.md against the Workers’ OpenAPI routes', () => {
  it('is what `npm run docs:api` writes from the route descriptions (run it after changing a route)', () => {
    expect(renderApiDoc(committed)).toBe(committed);
  });

  it('lists every documented route of the registry and chat Workers', () => {
    for (const route of [...REGISTRY_ROUTES, ...CHAT_ROUTES])
      expect(committed).toContain(`\`${route.method.toUpperCase()} ${route.path}\``);
  });

  it('has a generated block for each Worker (an empty file would pass the first check)', () => {
    expect(committed.match(/<!-- GENERATED from the (registry|chat) Worker/g)).toHaveLength(2);
  });
});
