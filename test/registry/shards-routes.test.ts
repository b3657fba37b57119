import {
  applyD1Migrations,
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  env,
  getQueueResult,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import worker from '../../workers/registry/src/index.ts';
import { Identity } from '../../lib/identity/index.ts';
import { createAttestation } from '../../lib/registry-client/index.ts';
import type { ProbeMessage } from '../../workers/registry/src/liveness/sweep.ts';
import { shardOf } from '../../workers/registry/src/shards/shard-key.ts';
import { generateAgents } from './fixtures/corpus/generate.ts';
import { fourShardBindings, SHARDS } from './fixtures/four-shards.ts';
import { accountWithKey, claimHandles, insertAgents } from './fixtures/search-seed.ts';
import { BASE, registrationBody } from './helpers.ts';

/**
 * The registry's routes over four agent shards, against the same registry on one database: the Worker's
 * fetch handler with two sets of bindings. SINGLE is `DB` alone (the default config); SHARDED has its home and
 * shard 0 on SHARD_0 and shards 1–3 named by AGENT_SHARDS, as a deploy would bind DB_SHARD_1…3. Both hold the
 * same account and key, the same 600-agent corpus (the sharded one split by address, seeded as search tests
 * seed) and the same agents registered through POST /v2/agents, proved and signed.
 */
const SINGLE = { ...env };
const SHARDED = fourShardBindings();
type Vars = typeof SINGLE;
const CORPUS = [...generateAgents(600, 290)];

let token: string;
let accountId: string;
const registered: Identity[] = [];

async function call(vars: Vars, path: string, init: RequestInit & { json?: unknown; auth?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.json !== undefined) headers.set('content-type', 'application/json');
  headers.set('authorization', init.auth ?? `Bearer ${token}`);
  const ctx = createExecutionContext();
  const body = init.json !== undefined ? JSON.stringify(init.json) : init.body;
  const response = await worker.fetch(new Request(`${BASE}${path}`, { ...init, headers, body }), vars, ctx);
  await waitOnExecutionContext(ctx);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Both registries' answers to one request, asserted equal: the clock-made fields (registration times) aside. */
async function same(path: string, init: RequestInit & { json?: unknown; auth?: string } = {}) {
  const single = await call(SINGLE, path, init);
  const sharded = await call(SHARDED, path, init);
  expect(withoutClock(sharded)).toEqual(withoutClock(single));
  return single;
}

/** Registration writes its own time: the agents registered in the test got theirs a moment apart in each registry. */
function withoutClock(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutClock);
  if (value === null || typeof value !== 'object') return value;
  const clocked = registered.some((identity) => (value as { address?: string }).address === identity.address);
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !(clocked && ['created_at', 'last_updated', 'registration_expires_at', 'expiry'].includes(key)))
      .map(([key, item]) => [key, withoutClock(item)]),
  );
}

async function register(vars: Vars, identity: Identity, overrides: Record<string, unknown>, auth = `Bearer ${token}`) {
  const issued = await call(vars, `/v2/identity/${identity.address}/challenge`, { auth });
  const challenge = issued.body.challenge as string;
  const proof = await call(vars, '/v2/identity', {
    method: 'POST',
    json: { address: identity.address, challenge, challenge_response: identity.sign(challenge) },
    auth,
  });
  expect(proof.status).toBe(200);
  const created = await call(vars, '/v2/agents', { method: 'POST', json: registrationBody(identity, overrides), auth });
  expect(created.status).toBe(200);
  return created;
}

const agentsOn = async (db: D1Database, address: string) =>
  (await db.prepare('SELECT count(*) AS n FROM agents WHERE address = ?').bind(address).first<{ n: number }>())!.n;

/** An account and key in both registries: made in the single database, its rows copied to the sharded home. */
async function accountInBoth() {
  const account = await accountWithKey(env.DB, ['read', 'write']);
  for (const table of ['accounts', 'api_keys']) {
    const column = table === 'accounts' ? 'id' : 'account_id';
    const { results } = await env.DB.prepare(`SELECT * FROM ${table} WHERE ${column} = ?`)
      .bind(account.accountId)
      .all<Record<string, unknown>>();
    for (const row of results) {
      const keys = Object.keys(row);
      await env.SHARD_0.prepare(`INSERT INTO ${table} (${keys.join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`)
        .bind(...Object.values(row))
        .run();
    }
  }
  return account;
}

/** One cron run of a registry, its queue and webhooks stood in for. */
async function cron(vars: Vars, sent: ProbeMessage[] = []) {
  const queue = {
    async sendBatch(messages: { body: ProbeMessage }[]) {
      sent.push(...messages.map((message) => message.body));
    },
  } as unknown as Queue;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response('ok'));
  try {
    const ctx = createExecutionContext();
    await worker.scheduled(
      createScheduledController({ scheduledTime: Date.now(), cron: '*/5 * * * *' }),
      { ...vars, LIVENESS_QUEUE: queue },
      ctx,
    );
    await waitOnExecutionContext(ctx);
  } finally {
    vi.restoreAllMocks();
  }
  return queue;
}

beforeAll(async () => {
  for (const db of [env.DB, ...SHARDS]) await applyD1Migrations(db, env.TEST_MIGRATIONS);
  ({ token, accountId } = await accountInBoth());
  await insertAgents(env.DB, accountId, CORPUS);
  for (const home of [env.DB, env.SHARD_0]) await claimHandles(home, CORPUS);
  for (const [i, db] of SHARDS.entries()) {
    if (i > 0) await db.prepare('INSERT INTO accounts (id, name, created_at) SELECT ?, ?, ?').bind(accountId, 'stub', '2026-01-01').run();
    await insertAgents(
      db,
      accountId,
      CORPUS.filter((agent) => shardOf(agent.address, SHARDS.length) === i),
    );
  }
  for (let i = 0; i < 12; i++) {
    // Fixed seeds: the same addresses, so the same shards, every run.
    const identity = Identity.fromSeed(`sharded registry test agent ${i}`, 0);
    registered.push(identity);
    const overrides = {
      name: `Sharded Weather Courier ${i}`,
      handle: i % 3 === 0 ? `courier-${i}` : null,
      profile: {
        description: 'Delivers weather reports by courier',
        readme: `# Courier ${i}\n\nWeather reports, delivered.`,
        starter_prompts: [],
      },
    };
    const single = await register(SINGLE, identity, overrides);
    const sharded = await register(SHARDED, identity, overrides);
    expect(withoutClock(sharded.body)).toEqual(withoutClock(single.body));
  }
}, 180_000);

describe('the registry routes over four agent shards equal one database', () => {
  it('registration lands on the owning shard only, with the account copied there for its foreign key', async () => {
    const owners = new Set<number>();
    for (const identity of registered) {
      const owner = shardOf(identity.address, SHARDS.length);
      owners.add(owner);
      for (const [i, db] of SHARDS.entries()) expect(await agentsOn(db, identity.address)).toBe(i === owner ? 1 : 0);
      expect(await agentsOn(env.DB, identity.address)).toBe(1);
    }
    expect(owners.size).toBeGreaterThan(1);
    // Identities (who proved which address) stay on home.
    const proven = await env.SHARD_1.prepare('SELECT count(*) AS n FROM identities').first<{ n: number }>();
    expect(proven!.n).toBe(0);
  });

  const searches: Record<string, unknown>[] = [
    {},
    { limit: 50, offset: 20 },
    { sort: 'interactions' },
    { sort: 'interactions', direction: 'asc', offset: 45, limit: 20 },
    { sort: 'last-modified', limit: 40 },
    { sort: 'created-at', offset: 300 },
    { sort: 'created-at', direction: 'asc', offset: 500, limit: 30 },
    { filters: { category: ['fetch-ai'] }, sort: 'interactions' },
    { filters: { agent_type: ['hosted', 'uagent'], state: ['active', 'inactive'] }, sort: 'last-modified', limit: 50 },
    { filters: { has_location: true }, offset: 10 },
    { search_text: 'weather', sort: 'interactions' },
    { search_text: 'weather courier', sort: 'created-at', direction: 'asc' },
    { search_text: 'hotel booking', sort: 'created-at', direction: 'asc', offset: 5 },
    { search_text: 'translate', sort: 'last-modified', filters: { state: ['active'] } },
  ];
  for (const request of searches)
    it(`POST /v1/search/agents: the same response for ${JSON.stringify(request)}`, async () => {
      const search_id = crypto.randomUUID();
      const single = await same('/v1/search/agents', { method: 'POST', json: { semantic_search: false, search_id, ...request } });
      expect(single.status).toBe(200);
      expect((single.body.agents as unknown[]).length).toBeGreaterThan(0);
    });

  const functionSearches: Record<string, unknown>[] = [
    { limit: 50 },
    { sort: 'last-modified', offset: 30 },
    { sort: 'created-at', direction: 'asc', limit: 40 },
    { sort: 'interactions', function_type: 'payload' },
    { search_text: 'forecast', sort: 'last-modified' },
    { search_text: 'tracking number', sort: 'created-at', cutoff: 0.5 },
  ];
  for (const request of functionSearches)
    it(`POST /v1/search/functions: the same response for ${JSON.stringify(request)}`, async () => {
      const search_id = crypto.randomUUID();
      const single = await same('/v1/search/functions', { method: 'POST', json: { search_id, ...request } });
      expect(single.status).toBe(200);
      expect((single.body.functions as unknown[]).length).toBeGreaterThan(0);
    });

  it('a function listing filtered by type past a small bound: the same full page of that type (docs/decisions/0208)', async () => {
    const json = { sort: 'created-at', function_type: 'payload', limit: 20 };
    const bound = { SEARCH_FUNCTION_CANDIDATES: '40' };
    const single = await call({ ...SINGLE, ...bound }, '/v1/search/functions', { method: 'POST', json });
    const sharded = await call({ ...SHARDED, ...bound }, '/v1/search/functions', { method: 'POST', json });
    const functions = (page: typeof single) => page.body.functions as { id: string; function_type: string }[];
    expect(functions(single)).toHaveLength(20);
    expect(new Set(functions(single).map((fn) => fn.function_type))).toEqual(new Set(['payload']));
    expect(functions(sharded).map((fn) => fn.id)).toEqual(functions(single).map((fn) => fn.id));
  });

  it('text ranked by relevancy: the same matches and total; the order is each shard’s bm25 (docs/scale.md)', async () => {
    for (const search_text of ['weather', 'translate documents', 'crypto wallet']) {
      const json = { semantic_search: false, search_text, limit: 100 };
      const single = await call(SINGLE, '/v1/search/agents', { method: 'POST', json });
      const sharded = await call(SHARDED, '/v1/search/agents', { method: 'POST', json });
      const addresses = (page: typeof single) => new Set((page.body.agents as { address: string }[]).map((agent) => agent.address));
      expect(sharded.body.total).toBe(single.body.total);
      expect(addresses(sharded)).toEqual(addresses(single));
    }
  });

  it('almanac lookup, resolve by address and by handle, agent detail and handle lookup: the same records', async () => {
    const corpus = CORPUS.slice(0, 30).map((agent) => agent.address);
    for (const address of [...corpus, ...registered.map((identity) => identity.address)]) {
      expect((await same(`/v1/almanac/agents/${address}`)).status).toBe(200);
      expect((await same(`/v2/almanac/resolve/${address}`)).status).toBe(200);
      expect((await same(`/v2/agents/${address}`)).status).toBe(200);
    }
    const handled = CORPUS.filter((agent) => agent.handle).slice(0, 10);
    for (const agent of handled) {
      expect((await same(`/v2/almanac/resolve/@${agent.handle}`)).status).toBe(200);
      expect((await same(`/v2/agents/handles/${agent.handle}`)).status).toBe(200);
    }
    expect((await same(`/v2/almanac/resolve/@no-such-handle-anywhere`)).status).toBe(404);
  });

  it('a handle held on one shard is refused to an agent of another shard', async () => {
    const holder = registered.find((_, i) => i % 3 === 0)!;
    const handle = ((await call(SHARDED, `/v2/agents/${holder.address}`)).body as { handle: string }).handle;
    const other = registered.find((identity) => shardOf(identity.address, 4) !== shardOf(holder.address, 4))!;
    const taken = await same(`/v2/agents/${other.address}`, { method: 'PATCH', json: { handle } });
    expect(taken.status).toBe(409);
  });

  it('a click is recorded on the clicked agent’s shard against the session on home', async () => {
    const search_id = crypto.randomUUID();
    const json = { semantic_search: false, search_id, search_text: 'weather courier', sort: 'created-at' };
    await same('/v1/search/agents', { method: 'POST', json });
    const clicked = registered.find((identity) => shardOf(identity.address, 4) !== 0)!;
    const click = { search_id, address: clicked.address, page_index: 0 };
    expect((await same('/v1/search/agents/click', { method: 'POST', json: click })).body).toMatchObject({
      status: 'recorded',
      duplicate: false,
    });
    expect((await same('/v1/search/agents/click', { method: 'POST', json: click })).body).toMatchObject({ duplicate: true });
    const unknown = await same('/v1/search/agents/click', { method: 'POST', json: { ...click, search_id: crypto.randomUUID() } });
    expect(unknown.status).toBe(404);
    const owner = SHARDS[shardOf(clicked.address, 4)]!;
    const stored = await owner
      .prepare('SELECT query_key FROM search_clicks WHERE search_id = ?')
      .bind(search_id)
      .first<{ query_key: string }>();
    expect(stored?.query_key).toBeTruthy();
  });

  it('interaction counts go to the target’s shard, the source read on its own', async () => {
    const target = registered[1]!;
    const source = registered.find((identity) => shardOf(identity.address, 4) !== shardOf(target.address, 4))!;
    for (let i = 0; i < 2; i++) {
      const attestation = createAttestation(source);
      const json = { target: target.address, source: source.address };
      const counted = await same('/v2/agents/interactions', { method: 'POST', json, auth: `Agent ${attestation}` });
      expect(counted.body).toMatchObject({ counted: true, total_interactions: i + 1 });
    }
    const owner = SHARDS[shardOf(target.address, 4)]!;
    const rows = await owner.prepare('SELECT count(*) AS n FROM interactions WHERE target = ?').bind(target.address).first<{ n: number }>();
    expect(rows!.n).toBe(2);
  });

  it('a search with a refused key gets the same 401 from both', async () => {
    const auth = 'Bearer rdv_0123456789abcdef_not-a-real-secret-000000000000000000000000000';
    const refused = await same('/v1/search/agents', { method: 'POST', json: { search_text: 'weather' }, auth });
    expect(refused.status).toBe(401);
  });

  it('the liveness cron claims on every shard; each queued message holds one shard’s agents and is probed there', async () => {
    const sent: ProbeMessage[] = [];
    const queue = await cron(SHARDED, sent);
    for (const db of SHARDS) {
      const claims = await db.prepare('SELECT count(*) AS n FROM liveness_claims').first<{ n: number }>();
      expect(claims!.n).toBeGreaterThan(0);
    }
    for (const message of sent) expect(new Set(message.addresses.map((address) => shardOf(address, 4))).size).toBe(1);
    expect(new Set(sent.map((message) => shardOf(message.addresses[0]!, 4)))).toEqual(new Set([0, 1, 2, 3]));
    const onShard2 = sent.find((message) => shardOf(message.addresses[0]!, 4) === 2)!;
    const batch = createMessageBatch<ProbeMessage>('rendezvous-liveness', [
      { id: 'm1', timestamp: new Date(), body: onShard2, attempts: 1 },
    ]);
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response('ok'));
    try {
      await worker.queue(batch, { ...SHARDED, LIVENESS_QUEUE: queue });
      await getQueueResult(batch, createExecutionContext());
    } finally {
      vi.restoreAllMocks();
    }
    const probed = await env.SHARD_2.prepare(
      'SELECT count(*) AS n FROM agents WHERE last_probe_at IS NOT NULL AND address IN (SELECT value FROM json_each(?))',
    )
      .bind(JSON.stringify(onShard2.addresses))
      .first<{ n: number }>();
    expect(probed!.n).toBeGreaterThan(0);
  });

  it('AgentRank ranks interactions between accounts whose agents are on different shards, as one database does', async () => {
    const other = await accountInBoth();
    const target = registered[2]!;
    const sender = [...Array(20).keys()]
      .map((i) => Identity.fromSeed(`sharded registry test sender ${i}`, 0))
      .find((identity) => shardOf(identity.address, 4) !== shardOf(target.address, 4))!;
    for (const vars of [SINGLE, SHARDED]) await register(vars, sender, { name: 'Other account sender' }, `Bearer ${other.token}`);
    const json = { target: target.address, source: sender.address };
    const counted = await same('/v2/agents/interactions', { method: 'POST', json, auth: `Agent ${createAttestation(sender)}` });
    expect(counted.body).toMatchObject({ counted: true });
    await cron(SINGLE);
    await cron(SHARDED);
    const detail = await same(`/v2/agents/${target.address}`);
    expect(detail.body).toMatchObject({ cross_account_interactions: 1, agent_rank: expect.any(Number) });
    expect(detail.body.agent_rank as number).toBeGreaterThan(0);
  });

  it('the own-agents list and deletion reach every shard', async () => {
    const single = await call(SINGLE, '/v2/agents');
    const sharded = await call(SHARDED, '/v2/agents');
    const addresses = (page: typeof single) => new Set((page.body.agents as { address: string }[]).map((agent) => agent.address));
    expect(addresses(sharded)).toEqual(addresses(single));
    const gone = registered.find((identity) => shardOf(identity.address, 4) === 3)!;
    expect((await same(`/v2/agents/${gone.address}`, { method: 'DELETE' })).status).toBe(200);
    expect(await agentsOn(env.SHARD_3, gone.address)).toBe(0);
    expect((await same(`/v1/almanac/agents/${gone.address}`)).status).toBe(404);
  });
});
