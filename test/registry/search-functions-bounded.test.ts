import { applyD1Migrations, env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FunctionSearchResponse } from '../../schemas/search.ts';
import { postWithVars } from './fixtures/search-client.ts';
import { accountWithKey, craftAgent, insertAgents } from './fixtures/search-seed.ts';

/**
 * Function search's bound at scale (docs/scale.md): a text search ranks at most SEARCH_FUNCTION_CANDIDATES
 * matches, the most recently written, and a listing without text reads at most as many functions, the first
 * in its sort's order (docs/decisions/0208). The Worker's vars set it to 5 here, so "gizmo" (in 12 agents'
 * functions) and the listing of those 12 take the bounded paths; with the default bound (wrangler.toml) every
 * match is ranked and counted.
 */
const BOUNDED = { ...env, SEARCH_FUNCTION_CANDIDATES: '5' };

/** Created in the reverse of the order written (the first written is the newest), interactions a permutation of 100…111. */
const withGizmoFunction = (seed: number, name: string, i: number) =>
  craftAgent(seed, name, 'Keeps an inventory of parts.', {
    created_at: new Date(Date.UTC(2026, 0, 20 - i)).toISOString(),
    total_interactions: 100 + ((i * 5) % 12),
    handle: null,
    readme: `# ${name}\n\nKeeps an inventory of parts.\n\n<payload_requirements>\n<description>Looks up a gizmo by its serial</description>\n<parameter>serial</parameter>\n<description>The gizmo's serial number</description>\n</payload_requirements>`,
  });
/** Written in this order: the last five have the newest functions. */
const GIZMO = Array.from({ length: 12 }, (_, i) => withGizmoFunction(500 + i, `Gizmo Desk ${i}`, i));
const NEWEST = GIZMO.slice(-5).map((agent) => agent.address);
/** Agents declaring a protocol, created before every gizmo desk: none of their functions is among the first five by creation. */
const PROTOCOL = Array.from({ length: 6 }, (_, i) =>
  craftAgent(600 + i, `Protocol Desk ${i}`, 'Speaks a protocol.', {
    created_at: new Date(Date.UTC(2025, 11, 20 - i)).toISOString(),
    protocols: [`proto:${'0'.repeat(63)}${i}`],
    total_interactions: 1000 + i,
    handle: null,
  }),
);

let token: string;

async function searchFunctions(body: Record<string, unknown>, vars: typeof env = env): Promise<FunctionSearchResponse> {
  return postWithVars('/v1/search/functions', token, body, vars);
}

beforeAll(async () => {
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
  const owner = await accountWithKey(env.DB, ['read']);
  token = owner.token;
  await insertAgents(env.DB, owner.accountId, [...GIZMO, ...PROTOCOL]);
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

describe('function listing without text reads a bounded prefix of its sort', () => {
  const addresses = (page: FunctionSearchResponse) => page.functions.map((fn) => fn.agent_address);
  const byCreated = GIZMO.map((agent) => agent.address);
  const byFewestInteractions = [...GIZMO].sort((a, b) => a.total_interactions - b.total_interactions).map((agent) => agent.address);

  it('with the default bound, every listed function is ordered and counted exactly', async () => {
    const page = await searchFunctions({ sort: 'created-at', limit: 20 });
    expect(addresses(page)).toEqual([...byCreated, ...PROTOCOL.map((agent) => agent.address)]);
    expect(page.total).toBe(GIZMO.length + PROTOCOL.length);
    expect(page.total_is_estimate).toBe(false);
  });

  it('past the bound, the first functions in the sort are listed, in order, and the total is a lower bound', async () => {
    const newest = await searchFunctions({ sort: 'created-at', limit: 20 }, BOUNDED);
    expect(addresses(newest)).toEqual(byCreated.slice(0, 5));
    expect(newest.total).toBe(5);
    expect(newest.total_is_estimate).toBe(true);
    const quietest = await searchFunctions({ sort: 'interactions', direction: 'asc', limit: 3 }, BOUNDED);
    expect(addresses(quietest)).toEqual(byFewestInteractions.slice(0, 3));
    expect(quietest.total).toBe(5);
    expect(quietest.total_is_estimate).toBe(true);
  });

  it('a page past the bound is empty and keeps the estimate', async () => {
    const page = await searchFunctions({ sort: 'created-at', limit: 5, offset: 5 }, BOUNDED);
    expect(page.functions).toEqual([]);
    expect(page.total).toBe(5);
    expect(page.total_is_estimate).toBe(true);
  });

  it('a type rare among the first functions of the sort still fills its page: the type is read within the bound', async () => {
    const page = await searchFunctions({ sort: 'created-at', function_type: 'protocol', limit: 4 }, BOUNDED);
    expect(page.functions.map((fn) => fn.function_type)).toEqual(['protocol', 'protocol', 'protocol', 'protocol']);
    expect(addresses(page)).toEqual(PROTOCOL.slice(0, 4).map((agent) => agent.address));
    expect(page).toMatchObject({ total: 5, total_is_estimate: true });
    const rest = await searchFunctions({ sort: 'created-at', filters: { function_type: ['protocol'] }, limit: 4, offset: 4 }, BOUNDED);
    expect(addresses(rest)).toEqual([PROTOCOL[4]!.address]);
    const exact = await searchFunctions({ sort: 'created-at', function_type: 'protocol', limit: 20 });
    expect(addresses(exact)).toEqual(PROTOCOL.map((agent) => agent.address));
    expect(exact).toMatchObject({ total: PROTOCOL.length, total_is_estimate: false });
  });

  it('functions of named agents are listed whatever the bound: the addresses bound the read', async () => {
    const oldest = byCreated.at(-1)!;
    const page = await searchFunctions({ sort: 'created-at', filters: { agent_address: [oldest] } }, BOUNDED);
    expect(addresses(page)).toEqual([oldest]);
    expect(page.total).toBe(1);
    expect(page.total_is_estimate).toBe(false);
  });
});
