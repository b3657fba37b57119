import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateAgents } from './fixtures/corpus/generate.ts';
import { searchAgents } from './fixtures/search-client.ts';
import { accountWithKey, insertAgents } from './fixtures/search-seed.ts';
import { seedRegistry } from './fixtures/seeded-registry.ts';

/**
 * search_agent_rank (0005) is what relevancy ranking reads for listed agents: it must follow every write to
 * the agents, through search_agent_facts' triggers, or ranking would use stale popularity.
 */
let token: string;
const agents = [...generateAgents(40, 77)];

const RANK = 'SELECT agent_rowid, address, recent_interactions, featured FROM search_agent_rank ORDER BY agent_rowid';
const FACTS = 'SELECT agent_rowid, address, recent_interactions, featured FROM search_agent_facts ORDER BY agent_rowid';
const rows = async (sql: string) => (await env.DB.prepare(sql).all()).results;

beforeAll(async () => {
  token = (await seedRegistry(agents)).token;
});

describe('search_agent_rank', () => {
  it('holds the ranking columns of every agent, through inserts, updates and deletes', async () => {
    expect(await rows(RANK)).toHaveLength(agents.length);
    expect(await rows(RANK)).toEqual(await rows(FACTS));

    await env.DB.prepare('UPDATE agents SET recent_interactions = recent_interactions + 1000, featured = 1 WHERE address = ?1')
      .bind(agents[3]!.address)
      .run();
    await env.DB.prepare('UPDATE agents SET is_active = 0 WHERE address = ?1').bind(agents[4]!.address).run();
    await env.DB.prepare('DELETE FROM agents WHERE address = ?1').bind(agents[5]!.address).run();
    expect(await rows(RANK)).toHaveLength(agents.length - 1);
    expect(await rows(RANK)).toEqual(await rows(FACTS));
    expect(
      await env.DB.prepare('SELECT recent_interactions, featured FROM search_agent_rank WHERE address = ?1')
        .bind(agents[3]!.address)
        .first(),
    ).toEqual({
      recent_interactions: (agents[3]!.recent_interactions ?? 0) + 1000,
      featured: 1,
    });
  });

  it('ranks with what it holds: of two agents matching alike, the one made popular and featured comes first', async () => {
    const [a, b] = [...generateAgents(2, 78)].map((agent) => ({
      ...agent,
      name: 'Quasarwidget Helper',
      description: 'Helps with quasarwidgets.',
      readme: '# Quasarwidget Helper',
      tags: [],
      protocols: [],
      is_active: true,
      featured: false,
      recent_interactions: 0,
    }));
    await insertAgents(env.DB, (await accountWithKey(env.DB, ['read'])).accountId, [a!, b!]);
    const before = (await searchAgents(token, { search_text: 'quasarwidget' })).agents.map((agent) => agent.address);
    expect(before).toHaveLength(2);
    const second = before[1]!;
    await env.DB.prepare('UPDATE agents SET recent_interactions = 5000, featured = 1 WHERE address = ?1').bind(second).run();
    const after = (await searchAgents(token, { search_text: 'quasarwidget' })).agents.map((agent) => agent.address);
    expect(after[0]).toBe(second);
  });
});
