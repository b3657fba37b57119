import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateAgents, type CorpusAgent } from './fixtures/corpus/generate.ts';
import { allPages, post, searchAgents, type SearchPage } from './fixtures/search-client.ts';
import { accountWithKey, insertAgents, type SeedAgent } from './fixtures/search-seed.ts';
import { seedRegistry } from './fixtures/seeded-registry.ts';

const agents: SeedAgent[] = [...generateAgents(150, 11)].map((agent, i) => ({
  ...agent,
  last_probe_ok: i % 3 === 0 ? true : i % 3 === 1 ? false : null,
}));

function craft(overrides: Partial<SeedAgent> & { name: string; seed: number }): SeedAgent {
  const [base] = [...generateAgents(1, overrides.seed)] as CorpusAgent[];
  return {
    ...base!,
    tags: [],
    protocols: [],
    readme: `# ${overrides.name}`,
    description: '',
    is_active: true,
    featured: false,
    ...overrides,
  };
}

const hidden = craft({ seed: 901, name: 'Secret Weather Oracle', description: 'Private weather forecasts', is_public: false });
const titled = craft({ seed: 902, name: 'Zebrafish Tracker', description: 'Follows lab animals.', recent_interactions: 0 });
const readmeOnly = craft({
  seed: 903,
  name: 'Lab Notebook',
  readme: '# Lab Notebook\n\nKeeps notes. Mentions zebrafish once.',
  recent_interactions: 4000,
});
const phrase = craft({ seed: 904, name: 'Quantum Ledger Auditor', description: 'Audits a quantum ledger for anomalies.' });
const scrambled = craft({ seed: 905, name: 'Ledger Tools', description: 'A ledger of quantum experiments.' });
const all = [...agents, hidden, titled, readmeOnly, phrase, scrambled];
const listedByDefault = all.filter((agent) => agent.is_active && agent.is_public !== false);

let token: string;

beforeAll(async () => {
  token = (await seedRegistry(all)).token;
});

const addresses = (page: SearchPage) => page.agents.map((agent) => agent.address);

describe('POST /v1/search/agents: keys', () => {
  it('refuses a request without a key (401)', async () => {
    const response = await post('/v1/search/agents', null, {});
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { type: 'authentication_error' } });
  });

  it('refuses an unknown key (401)', async () => {
    const response = await post('/v1/search/agents', 'rdv_nope_nope', {});
    expect(response.status).toBe(401);
  });

  it('refuses a key without read permission (403)', async () => {
    const writer = await accountWithKey(env.DB, ['write']);
    const response = await post('/v1/search/agents', writer.token, {});
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { type: 'permission_error' } });
  });

  // The key is read in the search's own first batch (BatchedKeyCheck): every kind of search must still refuse.
  const bodies = {
    browse: {},
    words: { search_text: 'weather' },
    phrase: { search_text: 'weather', exact_match: true },
    typo: { search_text: 'wether' },
  };

  it.each(Object.entries(bodies))('refuses a wrong secret, a revoked key and an expired key (401) for a %s search', async (_, body) => {
    const live = await accountWithKey(env.DB, ['read']);
    const wrongSecret = live.token.slice(0, -4) + (live.token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    const revoked = await accountWithKey(env.DB, ['read']);
    await env.DB.prepare('UPDATE api_keys SET revoked_at = ?1 WHERE id = ?2').bind(new Date().toISOString(), revoked.keyId).run();
    const expired = await accountWithKey(env.DB, ['read']);
    await env.DB.prepare('UPDATE api_keys SET expires_at = ?1 WHERE id = ?2')
      .bind(new Date(Date.now() - 1000).toISOString(), expired.keyId)
      .run();
    for (const [key, message] of [
      [wrongSecret, 'invalid API key'],
      [revoked.token, 'API key revoked'],
      [expired.token, 'API key expired'],
    ] as const) {
      const response = await post('/v1/search/agents', key, body);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: { type: 'authentication_error', message } });
    }
    expect((await post('/v1/search/agents', live.token, body)).status).toBe(200);
  });

  it('answers a bad key before a bad body (401), and a good key with the 400', async () => {
    const body = { filters: { state: ['asleep'] } };
    expect((await post('/v1/search/agents', `rdv_0123456789abcdef_${'x'.repeat(43)}`, body)).status).toBe(401);
    expect((await post('/v1/search/agents', `rdv_0123456789abcdef_${'x'.repeat(43)}`, '{"search_text": ', { raw: true })).status).toBe(401);
    const writer = await accountWithKey(env.DB, ['write']);
    expect((await post('/v1/search/agents', writer.token, body)).status).toBe(403);
    expect((await post('/v1/search/agents', token, body)).status).toBe(400);
  });

  it('records when a key was last used', async () => {
    const fresh = await accountWithKey(env.DB, ['read']);
    expect((await post('/v1/search/agents', fresh.token, { search_text: 'weather' })).status).toBe(200);
    let lastUsed: string | null = null;
    // Refreshed after the response (waitUntil): poll for it.
    for (let i = 0; i < 200 && !lastUsed; i++) {
      lastUsed = (await env.DB.prepare('SELECT last_used_at FROM api_keys WHERE id = ?1')
        .bind(fresh.keyId)
        .first<{ last_used_at: string | null }>())!.last_used_at;
      if (!lastUsed) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(Date.now() - Date.parse(lastUsed!)).toBeLessThan(60_000);
  });
});

describe('POST /v1/search/agents: validation', () => {
  const cases: [string, unknown, string][] = [
    ['state outside its values', { filters: { state: ['asleep'] } }, 'filters.state'],
    ['category outside its values', { filters: { category: ['partner'] } }, 'filters.category'],
    ['agent_type outside its values', { filters: { agent_type: ['robot'] } }, 'filters.agent_type'],
    ['protocol_digest not a digest', { filters: { protocol_digest: ['proto:xyz'] } }, 'filters.protocol_digest'],
    ['tags not strings', { filters: { tags: [42] } }, 'filters.tags'],
    ['has_readme not boolean', { filters: { has_readme: 'yes' } }, 'filters.has_readme'],
    ['has_location not boolean', { filters: { has_location: 1 } }, 'filters.has_location'],
    ['n_interactions negative', { filters: { n_interactions: -1 } }, 'filters.n_interactions'],
    ['n_interactions fractional', { filters: { n_interactions: 1.5 } }, 'filters.n_interactions'],
    ['an unknown filter', { filters: { colour: 'red' } }, 'filters'],
    ['filters not an object', { filters: 'active' }, 'filters'],
    ['sort outside its values', { sort: 'newest' }, 'sort'],
    ['direction outside its values', { direction: 'up' }, 'direction'],
    ['negative offset', { offset: -1 }, 'offset'],
    ['offset past the maximum', { offset: 10_001 }, 'offset'],
    ['limit 0', { limit: 0 }, 'limit'],
    ['limit past the maximum', { limit: 101 }, 'limit'],
    ['search_id not a UUID', { search_id: 'abc' }, 'search_id'],
    ['search_text not a string', { search_text: 5 }, 'search_text'],
    ['search_text too long', { search_text: 'a'.repeat(16_385) }, 'search_text'],
    ['cutoff above 1', { cutoff: 2 }, 'cutoff'],
    ['cutoff a level Agentverse clients are not known to send', { cutoff: 'loose' }, 'cutoff'],
    ['exact_match not boolean', { exact_match: 'yes' }, 'exact_match'],
    ['semantic_search not boolean', { semantic_search: 1 }, 'semantic_search'],
    ['rerank not boolean', { rerank: 'true' }, 'rerank'],
    ['exclude_geo_agents not boolean', { exclude_geo_agents: 0 }, 'exclude_geo_agents'],
    ['source not a string', { source: 7 }, 'source'],
    ['source past 256 characters', { source: 'a'.repeat(257) }, 'source'],
  ];
  it.each(cases)('400 for %s, naming the field', async (_, body, param) => {
    const response = await post('/v1/search/agents', token, body);
    expect(response.status).toBe(400);
    const error = ((await response.json()) as { error: { param: string | null; type: string } }).error;
    expect(error.type).toBe('invalid_request_error');
    expect(error.param?.startsWith(param)).toBe(true);
  });

  it('400 for a body that is not JSON, and for JSON that is not an object', async () => {
    expect((await post('/v1/search/agents', token, '{"search_text": ', { raw: true })).status).toBe(400);
    expect((await post('/v1/search/agents', token, '[1, 2]', { raw: true })).status).toBe(400);
  });

  it('takes null for any optional field (Python clients send None)', async () => {
    const page = await searchAgents(token, {
      search_text: null,
      filters: { state: null, tags: null },
      sort: null,
      limit: null,
      search_id: null,
    });
    expect(page.limit).toBe(30);
  });
});

describe('POST /v1/search/agents: envelope and paging', () => {
  // Counted in the FTS index (default visibility), or carried by the ranked rows (filters, cutoff): a page past the
  // last match has no row to carry it, and must still say how many there are.
  it.each([
    ['default visibility', { search_text: 'weather' }],
    ['a filter outside the index', { search_text: 'weather', filters: { state: ['active', 'inactive'] } }],
    ['a cutoff', { search_text: 'weather', cutoff: 0.2 }],
  ])('counts exactly on every page, and past the last one, with %s', async (_, body) => {
    const pages = await allPages(token, body, 2);
    const seen = pages.flatMap(addresses);
    expect(pages.every((page) => page.total === seen.length)).toBe(true);
    expect(seen.length).toBeGreaterThan(2);
    const past = await searchAgents(token, { ...body, offset: seen.length + 20, limit: 5 });
    expect(past).toMatchObject({ num_hits: 0, total: seen.length, agents: [] });
  });

  it('defaults to limit 30 from offset 0 with a new search_id, and counts exactly', async () => {
    const page = await searchAgents(token, {});
    expect(page).toMatchObject({ offset: 0, limit: 30, num_hits: 30, total: listedByDefault.length });
    expect(page.search_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(page.agents).toHaveLength(30);
    expect(page.agents[0]).toMatchObject({
      address: expect.stringMatching(/^agent1/),
      status: expect.any(String),
      featured: expect.any(Boolean),
    });
  });

  it('reuses a given search_id', async () => {
    const id = crypto.randomUUID();
    expect((await searchAgents(token, { search_id: id })).search_id).toBe(id);
  });

  it('answers a window past the end with an empty page and the exact total', async () => {
    const page = await searchAgents(token, { search_text: 'weather', offset: 5000 });
    expect(page.agents).toEqual([]);
    expect(page.num_hits).toBe(0);
    expect(page.total).toBe((await searchAgents(token, { search_text: 'weather' })).total);
  });

  const bodies: Record<string, unknown>[] = [
    {},
    { search_text: 'weather forecast' },
    { search_text: 'analysis' },
    { search_text: 'translate', rerank: true },
    { sort: 'created-at', direction: 'asc' },
    { sort: 'interactions' },
    { search_text: 'travel', sort: 'last-modified', filters: { state: ['active', 'inactive'] } },
    { search_text: 'data', semantic_search: true },
  ];
  it.each(bodies)('pages of one search_id neither repeat nor skip an agent: %j', async (body) => {
    const pages = await allPages(token, body, 2);
    const paged = pages.flatMap(addresses);
    expect(new Set(paged).size).toBe(paged.length);
    expect(paged.length).toBe(pages[0]!.total);
    for (const page of pages) expect(page.num_hits).toBe(page.agents.length);
    const whole: string[] = [];
    for (let offset = 0; offset < pages[0]!.total; offset += 100)
      whole.push(...addresses(await searchAgents(token, { ...body, limit: 100, offset })));
    expect(paged).toEqual(whole);
  });
});

describe('POST /v1/search/agents: filters', () => {
  const browseAll = async (filters: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const pages = await allPages(token, { filters, ...extra }, 100);
    return pages.flatMap((page) => page.agents);
  };
  const expectSame = (found: { address: string }[], expected: SeedAgent[]) =>
    expect(found.map((agent) => agent.address).sort()).toEqual(expected.map((agent) => agent.address).sort());

  it('state: inactive agents and those not public are hidden unless asked for', async () => {
    expectSame(await browseAll({}), listedByDefault);
    expectSame(
      await browseAll({ state: ['inactive'] }),
      all.filter((a) => !a.is_active && a.is_public !== false),
    );
    expectSame(
      await browseAll({ state: ['active', 'inactive'] }),
      all.filter((a) => a.is_public !== false),
    );
    expect(
      (await searchAgents(token, { search_text: 'secret weather oracle', filters: { state: ['active', 'inactive'] } })).agents.map(
        (a) => a.name,
      ),
    ).not.toContain(hidden.name);
  });

  it('state: responsive and unresponsive read the last liveness probe', async () => {
    expectSame(
      await browseAll({ state: ['responsive'] }),
      listedByDefault.filter((a) => a.last_probe_ok === true),
    );
    expectSame(
      await browseAll({ state: ['unresponsive'] }),
      listedByDefault.filter((a) => a.last_probe_ok !== true),
    );
    expectSame(
      await browseAll({ state: ['inactive', 'responsive'] }),
      all.filter((a) => !a.is_active && a.is_public !== false && a.last_probe_ok === true),
    );
  });

  it('category, agent_type: any of the values', async () => {
    expectSame(
      await browseAll({ category: ['fetch-ai'] }),
      listedByDefault.filter((a) => a.category === 'fetch-ai'),
    );
    expectSame(
      await browseAll({ agent_type: ['hosted', 'mailbox'] }),
      listedByDefault.filter((a) => a.agent_type === 'hosted' || a.agent_type === 'mailbox'),
    );
  });

  it('protocol_digest and tags: agents having any of them (tags case-insensitively)', async () => {
    const digest = agents.find((a) => a.protocols.length)!.protocols[0]!;
    expectSame(
      await browseAll({ protocol_digest: [digest] }),
      listedByDefault.filter((a) => a.protocols.includes(digest)),
    );
    expectSame(
      await browseAll({ tags: ['Weather', 'defi'] }),
      listedByDefault.filter((a) => a.tags.includes('weather') || a.tags.includes('defi')),
    );
  });

  it('has_readme, has_location, n_interactions, exclude_geo_agents', async () => {
    const empty = craft({ seed: 906, name: 'Readmeless', readme: '   ' });
    const owner = await accountWithKey(env.DB, ['read']);
    await insertAgents(env.DB, owner.accountId, [empty]);
    const listed = [...listedByDefault, empty];
    expectSame(
      await browseAll({ has_readme: true }),
      listed.filter((a) => a.readme.trim().length > 0),
    );
    expectSame(await browseAll({ has_readme: false }), listed);
    expectSame(
      await browseAll({ has_location: true }),
      listed.filter((a) => a.geo_location),
    );
    expectSame(
      await browseAll({}, { exclude_geo_agents: true }),
      listed.filter((a) => !a.geo_location),
    );
    expectSame(
      await browseAll({ n_interactions: 1000 }),
      listed.filter((a) => a.recent_interactions >= 1000),
    );
    await env.DB.prepare('DELETE FROM agents WHERE address = ?').bind(empty.address).run();
  });

  it('filters combine with text', async () => {
    const found = await searchAgents(token, { search_text: 'weather', filters: { has_location: true }, limit: 100 });
    expect(found.total).toBeGreaterThan(0);
    for (const agent of found.agents) expect(agent.geo_location).not.toBeNull();
  });
});

describe('POST /v1/search/agents: sorts', () => {
  const keyOf: Record<string, (a: Record<string, unknown>) => string | number> = {
    'created-at': (a) => a.created_at as string,
    'last-modified': (a) => a.last_updated as string,
    interactions: (a) => a.total_interactions as number,
  };
  it.each(
    Object.keys(keyOf).flatMap((sort) => [
      [sort, 'desc'],
      [sort, 'asc'],
    ]),
  )('%s %s orders every agent', async (sort, direction) => {
    const list = (await allPages(token, { sort, direction }, 100)).flatMap((page) => page.agents);
    expect(list).toHaveLength(listedByDefault.length);
    const keys = list.map(keyOf[sort]!);
    const sorted = [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(keys).toEqual(direction === 'asc' ? sorted : sorted.reverse());
  });

  it('relevancy without text: featured first, then most recent interactions', async () => {
    const list = (await allPages(token, {}, 100)).flatMap((page) => page.agents);
    const keys = list.map((a) => [a.featured ? 1 : 0, a.recent_interactions as number] as const);
    for (let i = 1; i < keys.length; i++) {
      const [f0, r0] = keys[i - 1]!;
      const [f1, r1] = keys[i]!;
      expect(f0 > f1 || (f0 === f1 && r0 >= r1)).toBe(true);
    }
  });

  it('relevancy asc is the exact reverse of desc', async () => {
    const desc = (await allPages(token, { search_text: 'weather' }, 100)).flatMap(addresses);
    const asc = (await allPages(token, { search_text: 'weather', direction: 'asc' }, 100)).flatMap(addresses);
    expect(asc).toEqual([...desc].reverse());
  });

  it('a text search can be sorted by another key', async () => {
    const list = (await searchAgents(token, { search_text: 'weather', sort: 'created-at', direction: 'asc', limit: 100 })).agents;
    const keys = list.map((a) => a.created_at as string);
    expect(keys).toEqual([...keys].sort());
  });
});

describe('POST /v1/search/agents: text', () => {
  const names = async (body: Record<string, unknown>) => (await searchAgents(token, { limit: 100, ...body })).agents.map((a) => a.name);

  it('ranks a title match above a README mention, whatever the popularity', async () => {
    const found = await names({ search_text: 'zebrafish' });
    expect(found.indexOf(titled.name)).toBeGreaterThanOrEqual(0);
    expect(found.indexOf(titled.name)).toBeLessThan(found.indexOf(readmeOnly.name));
  });

  it('stems words, matches the word being typed as a prefix, and tolerates one typo', async () => {
    const weather = listedByDefault.filter((a) => a.domain === 'weather').map((a) => a.name);
    for (const text of ['forecasts', 'weath', 'wether', 'waether', 'weatherr']) {
      const found = await names({ search_text: text });
      expect(found.some((name) => weather.includes(name))).toBe(true);
    }
  });

  it('does not complete a word the user finished typing', async () => {
    expect(await names({ search_text: 'zebra ' })).not.toContain(titled.name);
  });

  it('exact_match: the words as a phrase, nothing expanded', async () => {
    const loose = await names({ search_text: 'quantum ledger' });
    expect(loose).toEqual(expect.arrayContaining([phrase.name, scrambled.name]));
    const exact = await names({ search_text: 'quantum ledger', exact_match: true });
    expect(exact).toContain(phrase.name);
    expect(exact).not.toContain(scrambled.name);
    expect(await names({ search_text: 'wether', exact_match: true })).toEqual([]);
  });

  // Agentverse's own clients (its search skill) send `cutoff: "balanced"`: the ranking's own balance, no extra cut.
  it('cutoff "balanced" (Agentverse\'s named level) answers as no cutoff does', async () => {
    const plain = await searchAgents(token, { search_text: 'weather' });
    const balanced = await searchAgents(token, { search_text: 'weather', cutoff: 'balanced' });
    expect(balanced.total).toBe(plain.total);
    expect(addresses(balanced)).toEqual(addresses(plain));
  });

  it('cutoff drops hits scoring under that fraction of the best', async () => {
    const everything = await searchAgents(token, { search_text: 'weather' });
    const strict = await searchAgents(token, { search_text: 'weather', cutoff: 0.9 });
    expect(strict.total).toBeGreaterThan(0);
    expect(strict.total).toBeLessThan(everything.total);
    expect(addresses(strict)).toEqual(addresses(everything).slice(0, strict.num_hits));
  });

  it('with no words left (punctuation, emoji, operators) lists agents like an empty text', async () => {
    const browse = await searchAgents(token, {});
    for (const text of ['!!!', '🤖🚀', ' "" ', '* - ( ) :'])
      expect(addresses(await searchAgents(token, { search_text: text }))).toEqual(addresses(browse));
  });

  it('survives FTS syntax, SQL and huge texts', async () => {
    for (const text of [
      '"weather',
      'weather" OR "x',
      'NEAR(weather forecast, 2)',
      "'; DROP TABLE agents; --",
      'name:weather',
      '^weather',
      'a'.repeat(10_000),
      'weather '.repeat(1500),
    ]) {
      const response = await post('/v1/search/agents', token, { search_text: text });
      expect(response.status).toBe(200);
    }
    expect((await searchAgents(token, {})).total).toBe(listedByDefault.length);
  });

  it('finds an agent by its address', async () => {
    expect((await searchAgents(token, { search_text: titled.address })).agents[0]?.address).toBe(titled.address);
  });

  it('semantic_search without Workers AI fuses the offline source (word vectors, concepts) with the lexical ranking, matching any word, and says so', async () => {
    const response = await post('/v1/search/agents', token, { search_text: 'zebrafish quantum', semantic_search: true, limit: 100 });
    expect(response.headers.get('x-search-mode')).toBe('hybrid');
    expect(response.headers.get('x-semantic-source')).toBe('offline');
    const found = ((await response.json()) as SearchPage).agents.map((a) => a.name);
    expect(found).toEqual(expect.arrayContaining([titled.name, phrase.name]));
  });

  // Agentverse: "ideally '', 'agentverse', 'flockx', an agent address, but technically any arbitrary string".
  it.each(['router', '', 'agentverse', titled.address, 'My App (web, v2) ✓'])(
    'source %j is accepted and does not change results',
    async (source) => {
      expect(addresses(await searchAgents(token, { search_text: 'weather', source }))).toEqual(
        addresses(await searchAgents(token, { search_text: 'weather' })),
      );
    },
  );
});
