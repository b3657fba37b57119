import { applyD1Migrations, createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Identity } from '../../lib/identity/index.ts';
import worker from '../../workers/registry/src/index.ts';
import { shardOf } from '../../workers/registry/src/shards/shard-key.ts';
import { fourShardBindings, SHARDS } from './fixtures/four-shards.ts';
import { accountWithKey } from './fixtures/search-seed.ts';
import { BASE, freshIdentity, registrationBody } from './helpers.ts';

/**
 * D1's Sessions API bookmark carried between a client's requests (docs/decisions/0205), through the Worker's
 * fetch handler: one database (DB alone) and four shards (home on SHARD_0). Each D1 binding is wrapped to
 * record what its sessions were started from: workerd's local D1 has no replicas, so that a read started from
 * the bookmark its client's write returned is what can be seen of "reads its own write".
 */
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;
const started: { db: string; from: string }[] = [];

function recorded(name: string, db: D1Database): D1Database {
  return new Proxy(db, {
    get(target, property) {
      if (property === 'withSession')
        return (from: string) => {
          started.push({ db: name, from });
          return target.withSession(from);
        };
      const value = Reflect.get(target, property) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const SINGLE = { ...env, DB: recorded('single', env.DB) };
const SHARDED = fourShardBindings(recorded);
type Vars = typeof SINGLE;

const tokens = new Map<Vars, string>();

async function call(vars: Vars, path: string, init: { method?: string; json?: unknown; bookmark?: string } = {}) {
  const headers = new Headers({ authorization: `Bearer ${tokens.get(vars)}` });
  if (init.json !== undefined) headers.set('content-type', 'application/json');
  if (init.bookmark !== undefined) headers.set('x-d1-bookmark', init.bookmark);
  const body = init.json === undefined ? undefined : JSON.stringify(init.json);
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`${BASE}${path}`, { method: init.method ?? 'GET', headers, body }), vars, ctx);
  await waitOnExecutionContext(ctx);
  return {
    status: response.status,
    bookmark: response.headers.get('x-d1-bookmark'),
    body: (await response.json()) as Record<string, unknown>,
  };
}

async function registeredOn(vars: Vars, shard: number, shards: number, handle: string) {
  let identity: Identity = freshIdentity();
  while (shardOf(identity.address, shards) !== shard) identity = freshIdentity();
  const { challenge } = (await call(vars, `/v2/identity/${identity.address}/challenge`)).body as { challenge: string };
  const json = { address: identity.address, challenge, challenge_response: identity.sign(challenge) };
  expect((await call(vars, '/v2/identity', { method: 'POST', json })).status).toBe(200);
  return { identity, created: await call(vars, '/v2/agents', { method: 'POST', json: registrationBody(identity, { handle }) }) };
}

beforeAll(async () => {
  for (const db of [env.DB, ...SHARDS]) await applyD1Migrations(db, env.TEST_MIGRATIONS);
  tokens.set(SINGLE, (await accountWithKey(env.DB, ['read', 'write'])).token);
  tokens.set(SHARDED, (await accountWithKey(env.SHARD_0, ['read', 'write'])).token);
});

describe('x-d1-bookmark: a client reads its own writes', () => {
  it('one database: the registration answers D1’s bookmark; the next read starts from it and answers one as new', async () => {
    const { identity, created } = await registeredOn(SINGLE, 0, 1, 'bookmark-single');
    expect(created.status).toBe(200);
    expect(created.bookmark).toMatch(BOOKMARK);
    started.length = 0;
    const found = await call(SINGLE, '/v2/almanac/resolve/@bookmark-single', { bookmark: created.bookmark! });
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ address: identity.address });
    expect(started).toContainEqual({ db: 'single', from: created.bookmark });
    expect(found.bookmark! >= created.bookmark!).toBe(true);
  });

  it('four shards: one bookmark per shard; a read of the new agent starts its owner shard’s session from it', async () => {
    const { identity, created } = await registeredOn(SHARDED, 2, 4, 'bookmark-sharded');
    expect(created.status).toBe(200);
    const entries = created.bookmark!.split(',');
    expect(entries).toHaveLength(4);
    // The agent's shard (its write) and home (the handle's claim) have bookmarks; shards not touched none.
    expect(entries[2]).toMatch(BOOKMARK);
    expect(entries[0]).toMatch(BOOKMARK);
    expect(entries[1]).toBe('');
    expect(entries[3]).toBe('');
    started.length = 0;
    const detail = await call(SHARDED, `/v2/agents/${identity.address}`, { bookmark: created.bookmark! });
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ address: identity.address, handle: 'bookmark-sharded' });
    expect(started).toContainEqual({ db: 'shard-2', from: entries[2] });
    const after = detail.bookmark!.split(',');
    expect(after[2]! >= entries[2]!).toBe(true);
    // Untouched by the read: the client's bookmark for home comes back as it was sent.
    expect(after[0]).toBe(entries[0]);
  });

  it('a search fans out from the bookmarks: every shard session starts from the client’s entry, or on any replica', async () => {
    const { created } = await registeredOn(SHARDED, 1, 4, 'bookmark-search');
    started.length = 0;
    const search = await call(SHARDED, '/v1/search/agents', {
      method: 'POST',
      json: { semantic_search: false, search_text: 'test agent' },
      bookmark: created.bookmark!,
    });
    expect(search.status).toBe(200);
    const entries = created.bookmark!.split(',');
    for (const [i, entry] of entries.entries())
      expect(started).toContainEqual({ db: `shard-${i}`, from: entry === '' ? 'first-unconstrained' : entry });
    expect(search.bookmark!.split(',')).toHaveLength(4);
  });

  it('the browser client may send it and read it (CORS)', async () => {
    const origin = 'http://localhost:5174';
    const preflight = await worker.fetch(
      new Request(`${BASE}/v2/agents/handles/anyone`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization, x-d1-bookmark' },
      }),
      SINGLE,
      createExecutionContext(),
    );
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-d1-bookmark');
    const ctx = createExecutionContext();
    const read = await worker.fetch(
      new Request(`${BASE}/v2/agents/handles/bookmark-single`, { headers: { origin, authorization: `Bearer ${tokens.get(SINGLE)}` } }),
      SINGLE,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(read.headers.get('x-d1-bookmark')).toMatch(BOOKMARK);
    expect(read.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('x-d1-bookmark');
  });

  it('a malformed bookmark is a clear 400, never a 500; an empty one or one from a larger shard count is read as far as it goes', async () => {
    const valid = '00000000-00000001-00000000-00000000000000000000000000000000';
    for (const bookmark of ['garbage', `${valid}x`, 'a'.repeat(5000), Array(65).fill(valid).join(','), `${valid};drop`]) {
      const refused = await call(SHARDED, '/v1/almanac/agents/agent1qf70zses7lqz7u4k7f8ls8kdaf66ct8efgpasycg3gvjpaz4cqsnxk0lwsk', {
        bookmark,
      });
      expect(refused.status).toBe(400);
      // The almanac is an SDK-facing route: its refusals are `{detail}`, this one too.
      expect(refused.body).toEqual({ detail: expect.stringContaining('malformed x-d1-bookmark') });
    }
    const search = await call(SHARDED, '/v1/search/agents', { method: 'POST', json: {}, bookmark: 'garbage' });
    expect(search.status).toBe(400);
    expect(search.body).toMatchObject({ error: { message: expect.stringContaining('malformed x-d1-bookmark') } });
    for (const bookmark of ['', Array(6).fill(valid).join(',')])
      expect((await call(SHARDED, '/v2/agents/handles/nobody-holds-this', { bookmark })).status).toBe(404);
  });
});
