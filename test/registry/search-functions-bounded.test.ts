import { applyD1Migrations, env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FunctionSearchResponse } from '../../schemas/search.ts';
import { postWithVars } from './fixtures/search-client.ts';
import { accountWithKey, craftAgent, insertAgents } from './fixtures/search-seed.ts';

/**
 * Function search's bound at scale (docs/scale.md): a text search ranks at most SEARCH_FUNCTION_CANDIDATES
 * matches, the most recently written. The Worker's vars set it to 5 here, so "gizmo" (in 12 agents' functions)
 * takes the bounded path; with the default bound (wrangler.toml) every match is ranked and counted.
 */
const BOUNDED = { ...env, SEARCH_FUNCTION_CANDIDATES: '5' };

const withGizmoFunction = (seed: number, name: string) =>
  craftAgent(seed, name, 'Keeps an inventory of parts.', {
    handle: null,
    readme: `# ${name}\n\nKeeps an inventory of parts.\n\n<payload_requirements>\n<description>Looks up a gizmo by its serial</description>\n<parameter>serial</parameter>\n<description>The gizmo's serial number</description>\n</payload_requirements>`,
  });
/** Written in this order: the last five have the newest functions. */
const GIZMO = Array.from({ length: 12 }, (_, i) => withGizmoFunction(500 + i, `Gizmo Desk ${i}`));
const NEWEST = GIZMO.slice(-5).map((agent) => agent.address);

let token: string;

async function searchFunctions(body: Record<string, unknown>, vars: typeof env = env): Promise<FunctionSearchResponse> {
  return postWithVars('/v1/search/functions', token, body, vars);
}

beforeAll(async () => {
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
  const owner = await accountWithKey(env.DB, ['read']);
  token = owner.token;
  await insertAgents(env.DB, owner.accountId, GIZMO);
});

describe('function search by text ranks a bounded set of matches', () => {
  it('with the default bound, every match is ranked and counted exactly', async () => {
    const page = await searchFunctions({ search_text: 'gizmo', limit: 20 });
    expect(page.functions.map((fn) => fn.agent_address).sort()).toEqual(GIZMO.map((agent) => agent.address).sort());
    expect(page.total).toBe(GIZMO.length);
    expect(page.total_is_estimate).toBe(false);
  });

  it('past the bound, only the most recently written matches are ranked, and the total is a lower bound', async () => {
    const page = await searchFunctions({ search_text: 'gizmo', limit: 20 }, BOUNDED);
    expect(page.functions.map((fn) => fn.agent_address).sort()).toEqual([...NEWEST].sort());
    expect(page.total).toBe(NEWEST.length);
    expect(page.total_is_estimate).toBe(true);
  });

  it('a page past the bounded matches is empty and keeps the estimate', async () => {
    const page = await searchFunctions({ search_text: 'gizmo', limit: 5, offset: 5 }, BOUNDED);
    expect(page.functions).toEqual([]);
    expect(page.total).toBe(NEWEST.length);
    expect(page.total_is_estimate).toBe(true);
  });
});
