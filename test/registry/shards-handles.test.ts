import { applyD1Migrations, createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Identity } from '../../lib/identity/index.ts';
import worker from '../../workers/registry/src/index.ts';
import { shardOf } from '../../workers/registry/src/shards/shard-key.ts';
import { generateAgents } from './fixtures/corpus/generate.ts';
import { fourShardBindings, SHARDS } from './fixtures/four-shards.ts';
import { accountWithKey, insertAgents } from './fixtures/search-seed.ts';
import { BASE, freshIdentity, registrationBody } from './helpers.ts';

/**
 * Handles are unique over four agent shards (docs/decisions/0204): the claim on home (agent_handles) decides,
 * not a look at every shard. Through the Worker's fetch handler with home and shard 0 on SHARD_0 and shards
 * 1–3 named by AGENT_SHARDS (fixtures/four-shards.ts).
 */
const SHARDED = fourShardBindings();

let token: string;
let accountId: string;

async function call(path: string, init: { method?: string; json?: unknown } = {}) {
  const headers = new Headers({ authorization: `Bearer ${token}` });
  if (init.json !== undefined) headers.set('content-type', 'application/json');
  const body = init.json === undefined ? undefined : JSON.stringify(init.json);
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`${BASE}${path}`, { method: init.method ?? 'GET', headers, body }), SHARDED, ctx);
  await waitOnExecutionContext(ctx);
  return { status: response.status, type: response.headers.get('content-type'), body: (await response.json()) as Record<string, unknown> };
}

/** A fresh identity the account has proved, whose agent lives on `shard`. */
async function provedOn(shard: number): Promise<Identity> {
  let identity = freshIdentity();
  while (shardOf(identity.address, SHARDS.length) !== shard) identity = freshIdentity();
  const { challenge } = (await call(`/v2/identity/${identity.address}/challenge`)).body as { challenge: string };
  const proof = await call('/v2/identity', {
    method: 'POST',
    json: { address: identity.address, challenge, challenge_response: identity.sign(challenge) },
  });
  expect(proof.status).toBe(200);
  return identity;
}

const registerWith = (identity: Identity, handle: string | null) =>
  call('/v2/agents', { method: 'POST', json: registrationBody(identity, { handle }) });

/** Every agent on every shard that holds the handle. */
async function holders(handle: string): Promise<string[]> {
  const rows = await Promise.all(
    SHARDS.map(
      async (db) => (await db.prepare('SELECT address FROM agents WHERE handle = ?').bind(handle).all<{ address: string }>()).results,
    ),
  );
  return rows.flat().map((row) => row.address);
}

beforeAll(async () => {
  for (const db of SHARDS) await applyD1Migrations(db, env.TEST_MIGRATIONS);
  ({ token, accountId } = await accountWithKey(env.SHARD_0, ['read', 'write']));
});

describe('a handle is unique over every shard', () => {
  it('two registrations racing for one handle from agents on different shards: one wins, the other gets a 409', async () => {
    for (const [round, [first, second]] of [
      [0, 1],
      [2, 3],
      [1, 3],
    ].entries()) {
      const a = await provedOn(first!);
      const b = await provedOn(second!);
      const handle = `contested-${round}`;
      const outcomes = await Promise.all([registerWith(a, handle), registerWith(b, handle)]);
      expect(outcomes.map((outcome) => outcome.status).sort()).toEqual([200, 409]);
      const refused = outcomes.find((outcome) => outcome.status === 409)!;
      expect(refused.type).toMatch(/application\/json/);
      expect(refused.body.detail).toBe(`handle "${handle}" is taken by another agent`);
      const winner = outcomes.findIndex((outcome) => outcome.status === 200) === 0 ? a : b;
      expect(await holders(handle)).toEqual([winner.address]);
      expect((await call(`/v2/agents/handles/${handle}`)).body).toMatchObject({ address: winner.address, handle });
    }
  });

  it('a handle changed or deleted away is free for an agent on another shard; one still held is not', async () => {
    const a = await provedOn(1);
    const b = await provedOn(2);
    expect((await registerWith(a, 'harbour-desk')).status).toBe(200);
    expect((await call(`/v2/agents/${a.address}`, { method: 'PATCH', json: { handle: 'harbour-office' } })).status).toBe(200);
    expect((await call('/v2/agents/handles/harbour-desk')).status).toBe(404);
    expect((await registerWith(b, 'harbour-desk')).status).toBe(200);
    expect((await call(`/v2/agents/${b.address}`, { method: 'PATCH', json: { handle: 'harbour-office' } })).status).toBe(409);
    expect((await call(`/v2/agents/${a.address}`, { method: 'DELETE' })).status).toBe(200);
    expect((await call(`/v2/agents/${b.address}`, { method: 'PATCH', json: { handle: 'harbour-office' } })).status).toBe(200);
    expect(await holders('harbour-desk')).toEqual([]);
    expect(await holders('harbour-office')).toEqual([b.address]);
  });

  it('a write that fails releases the claim it made: an agent row holding the handle without a claim refuses it', async () => {
    // As a row written before migration 0018 and missed by it would: the handle on the agent, no claim on home.
    const [seeded] = [...generateAgents(1, 4242)].map((agent) => ({ ...agent, handle: 'unclaimed-desk' }));
    const shard = shardOf(seeded!.address, SHARDS.length);
    if (shard !== 0)
      await SHARDS[shard]!.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING')
        .bind(accountId, 'stub', '2026-01-01')
        .run();
    await insertAgents(SHARDS[shard]!, accountId, [seeded!]);
    const late = await provedOn(shard);
    const refused = await registerWith(late, 'unclaimed-desk');
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe('handle "unclaimed-desk" is taken by another agent');
    const claims = await env.SHARD_0.prepare("SELECT count(*) AS n FROM agent_handles WHERE handle = 'unclaimed-desk'").first<{
      n: number;
    }>();
    expect(claims!.n).toBe(0);
    expect(await holders('unclaimed-desk')).toEqual([seeded!.address]);
  });
});

describe('migration 0018', () => {
  it('claims on home every handle agents held before it', async () => {
    const db = env.DB;
    await applyD1Migrations(
      db,
      env.TEST_MIGRATIONS.filter((migration) => migration.name < '0018'),
    );
    const owner = await accountWithKey(db, ['read']);
    const agents = [...generateAgents(40, 77)];
    await insertAgents(db, owner.accountId, agents);
    await applyD1Migrations(db, env.TEST_MIGRATIONS);
    const { results } = await db
      .prepare('SELECT handle, address FROM agent_handles ORDER BY handle')
      .all<{ handle: string; address: string }>();
    const held = agents
      .filter((agent) => agent.handle)
      .map((agent) => ({ handle: agent.handle, address: agent.address }))
      .sort((x, y) => (x.handle! < y.handle! ? -1 : 1));
    expect(held.length).toBeGreaterThan(0);
    expect(results).toEqual(held);
  });
});
