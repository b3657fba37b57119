import { env } from 'cloudflare:test';
import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildEnvelope, serializeEnvelope } from '../../lib/envelope/index.ts';
import type { Identity } from '../../lib/identity/index.ts';
import { createAttestation } from '../../lib/registry-client/index.ts';
import { errorBodySchema } from '../../schemas/http.ts';
import type { CreatedKey } from '../../schemas/keys.ts';
import { type AgentDetail, detailErrorSchema, README_MAX_CHARS } from '../../schemas/registry.ts';
import { DAILY_INTERACTIONS_PER_PAIR } from '../../workers/registry/src/interactions/store.ts';
import { DAILY_CLICKS_PER_AGENT } from '../../workers/registry/src/search/clicks.ts';
import { ADMIN_TOKEN, api, freshIdentity, json, migrate, newKey, prove, registered, registrationBody } from './helpers.ts';

/**
 * Seeded random inputs over the limits of issue 14: key minting (permissions, expiry, limits, other
 * accounts, keys per account), README size at registration and update, interaction and click caps, and the
 * proxy's envelope checks. Refusals are 4xx in the route's dialect (the platform's `{error}` on /v1/keys,
 * `{detail}` on the SDK routes), never a 5xx, and change nothing; capped counts never pass their cap.
 */
const SEED = 20261125;

beforeAll(migrate);
afterEach(() => vi.restoreAllMocks());

/** A 4xx whose body is the dialect's error shape; `failures` collects what is not. */
async function expectRefusal(response: Response, dialect: 'platform' | 'detail', what: string, failures: string[], status?: number) {
  const body = await response.json().catch(() => null);
  const shaped = (dialect === 'platform' ? errorBodySchema : detailErrorSchema).safeParse(body).success;
  const refused = status === undefined ? response.status >= 400 && response.status < 500 : response.status === status;
  if (!refused || !shaped) failures.push(`${what} → ${response.status} ${JSON.stringify(body).slice(0, 160)}`);
}

async function keyIds(token: string): Promise<string[]> {
  const response = await api('/v1/keys', { token });
  expect(response.status).toBe(200);
  return (await json<{ keys: { id: string }[] }>(response)).keys.map((key) => key.id).sort();
}

const mintedName = fc.string({ minLength: 1, maxLength: 40 });

describe('fuzz: key minting stays within the minter’s bounds', () => {
  it('permissions beyond the minter’s, a longer life, limits, other accounts: 4xx {error}, no key made', { timeout: 120_000 }, async () => {
    const manager = await newKey(['keys', 'read'], { expires_in_days: 30, limits: { requests_per_minute: 10 } });
    const otherAccount = (await newKey(['read'])).account_id;
    const before = await keyIds(manager.key);
    const escalation = fc
      .record({
        name: mintedName,
        permissions: fc.uniqueArray(fc.constantFrom('read', 'keys', 'write', 'chat'), { minLength: 1 }),
        expires_in_days: fc.option(fc.integer({ min: 1, max: 3650 }), { nil: undefined }),
      })
      .filter((body) => body.permissions.some((p) => p === 'write' || p === 'chat'));
    const longer = fc.record({
      name: mintedName,
      permissions: fc.subarray(['read', 'keys'], { minLength: 1 }),
      expires_in_days: fc.integer({ min: 31, max: 3650 }),
    });
    const limits = fc.record({
      name: mintedName,
      permissions: fc.constant(['read']),
      limits: fc.oneof(
        fc.record({ requests_per_minute: fc.integer({ min: 1, max: 2_000_000 }) }),
        fc.record({ tokens_per_minute: fc.integer({ min: 1, max: 2_000_000_000 }) }),
        fc.anything({ maxDepth: 1 }),
      ),
    });
    const elsewhere = fc.oneof(
      fc.record({ name: mintedName, permissions: fc.constant(['read']), account_id: fc.constant(otherAccount) }),
      fc.record({ name: mintedName, permissions: fc.constant(['read']), account_name: fc.string({ minLength: 1, maxLength: 20 }) }),
    );
    const malformed = fc.oneof(
      fc.record({
        name: mintedName,
        permissions: fc.constant(['read']),
        expires_in_days: fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 3651 }), fc.double({ noInteger: true }), fc.string()),
      }),
      fc.record({ name: mintedName, permissions: fc.oneof(fc.constant([]), fc.array(fc.string(), { minLength: 1, maxLength: 3 })) }),
      fc.record({ permissions: fc.constant(['read']) }),
    );
    const bodies = fc.sample(fc.oneof(escalation, longer, limits, elsewhere, malformed), { numRuns: 200, seed: SEED });
    const failures: string[] = [];
    for (const body of bodies) {
      await expectRefusal(
        await api('/v1/keys', { method: 'POST', token: manager.key, json: body }),
        'platform',
        JSON.stringify(body),
        failures,
      );
    }
    for (const changes of fc.sample(
      fc.record({ limits: fc.oneof(fc.constant(null), fc.record({ requests_per_minute: fc.integer({ min: 1, max: 1_000_000 }) })) }),
      {
        numRuns: 20,
        seed: SEED,
      },
    )) {
      await expectRefusal(
        await api(`/v1/keys/${manager.id}`, { method: 'PATCH', token: manager.key, json: changes }),
        'platform',
        `PATCH ${JSON.stringify(changes)}`,
        failures,
        403,
      );
    }
    expect(failures).toEqual([]);
    expect(await keyIds(manager.key)).toEqual(before);
    const own = (await json<{ keys: { id: string; limits: unknown }[] }>(await api('/v1/keys', { token: manager.key }))).keys;
    expect(own.find((key) => key.id === manager.id)?.limits).toEqual({ requests_per_minute: 10 });
  });

  it('minting past the per-account cap, by the key and by the operator: 403 too_many_keys, the count stays at the cap', {
    timeout: 120_000,
  }, async () => {
    const manager = await newKey(['keys', 'read', 'write']);
    const valid = fc.record({
      name: mintedName,
      permissions: fc.subarray(['read', 'write', 'keys'], { minLength: 1 }),
      expires_in_days: fc.option(fc.integer({ min: 1, max: 3650 }), { nil: undefined }),
    });
    const bodies = fc.sample(valid, { numRuns: 60, seed: SEED });
    const statuses: number[] = [];
    const failures: string[] = [];
    for (const [index, body] of bodies.entries()) {
      const byOperator = index % 3 === 2;
      const response = await api('/v1/keys', {
        method: 'POST',
        token: byOperator ? ADMIN_TOKEN : manager.key,
        json: byOperator ? { ...body, account_id: manager.account_id } : body,
      });
      statuses.push(response.status);
      if (response.status !== 201) await expectRefusal(response, 'platform', JSON.stringify(body), failures, 403);
      else await response.body?.cancel();
    }
    expect(failures).toEqual([]);
    // The manager is the first of 25: 24 more are made, every later one refused.
    expect(statuses.slice(0, 24).every((status) => status === 201)).toBe(true);
    expect(statuses.slice(24).every((status) => status === 403)).toBe(true);
    expect(await keyIds(manager.key)).toHaveLength(25);
  });
});

const markdownUnit = fc.constantFrom(
  '# Heading\n',
  '![tag:x](y) ',
  '[a](https://a.example) ',
  '`code` ',
  '<b>',
  'é',
  '数',
  '🌱',
  '*',
  '_',
  '\n\n',
  '| a | b |\n',
);
const tooLongReadme = fc
  .tuple(fc.array(markdownUnit, { minLength: 1, maxLength: 20 }), fc.integer({ min: 1, max: 20_000 }))
  .map(([units, extra]) => {
    const unit = units.join('');
    // Characters as zod counts them (code points): an emoji is one, however many UTF-16 units it takes.
    return unit.repeat(Math.ceil((README_MAX_CHARS + extra) / [...unit].length));
  });

describe('fuzz: README size at registration and update', () => {
  it('a README over the cap is a 406 {detail}; the agent is not registered, or keeps its README', { timeout: 120_000 }, async () => {
    const { key } = await newKey(['read', 'write']);
    const readmes = fc.sample(tooLongReadme, { numRuns: 12, seed: SEED });
    const failures: string[] = [];
    const kept = freshIdentity();
    expect((await registered(kept, key)).status).toBe(200);
    for (const readme of readmes) {
      const fresh = freshIdentity();
      expect((await prove(fresh, key)).status).toBe(200);
      const base = registrationBody(fresh);
      const register = await api('/v2/agents', { method: 'POST', token: key, json: { ...base, profile: { ...base.profile, readme } } });
      await expectRefusal(register, 'detail', `register ${readme.length}`, failures, 406);
      expect((await api(`/v2/agents/${fresh.address}`, { token: key })).status).toBe(404);
      const update = await api(`/v2/agents/${kept.address}`, { method: 'PUT', token: key, json: { readme } });
      await expectRefusal(update, 'detail', `update ${readme.length}`, failures, 406);
    }
    expect(failures).toEqual([]);
    expect((await json<AgentDetail>(await api(`/v2/agents/${kept.address}`, { token: key }))).readme).toBe('# Test agent');
  });
});

/** A target and a source registered under accounts (only such sources count). */
async function agentPair(): Promise<{ key: CreatedKey; target: Identity; source: Identity }> {
  const key = await newKey(['read', 'write']);
  const target = freshIdentity();
  const source = freshIdentity();
  await registered(target, key.key, { url: 'https://target.example.com/webhook' });
  await registered(source, (await newKey(['read', 'write'])).key, { url: 'https://source.example.com/webhook' });
  return { key, target, source };
}

const interactions = async (key: CreatedKey, target: Identity) =>
  (await json<AgentDetail>(await api(`/v2/agents/${target.address}`, { token: key.key }))).total_interactions;

describe('fuzz: interaction counts stay within their caps', () => {
  it('random reports (genuine, throwaway sources, self-reports, wrong attesters, bad bodies): never a 5xx, never past the daily cap', {
    timeout: 120_000,
  }, async () => {
    const { key, target, source } = await agentPair();
    const throwaway = freshIdentity();
    const report = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({ kind: fc.constant('genuine'), session_id: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }) }),
      },
      fc.record({ kind: fc.constant('throwaway') }),
      fc.record({ kind: fc.constant('self') }),
      fc.record({ kind: fc.constant('stranger') }),
      fc.record({ kind: fc.constant('malformed'), body: fc.anything({ maxDepth: 2 }) }),
    );
    const failures: string[] = [];
    let genuine = 0;
    for (const sample of fc.sample(report, { numRuns: 60, seed: SEED })) {
      const send = (attester: Identity, body: unknown) =>
        api('/v2/agents/interactions', { method: 'POST', headers: { authorization: `Agent ${createAttestation(attester)}` }, json: body });
      if (sample.kind === 'genuine') {
        genuine += 1;
        const response = await send(source, { target: target.address, source: source.address, session_id: sample.session_id });
        const body = await json<{ counted: boolean }>(response);
        if (response.status !== 200 || body.counted !== genuine <= DAILY_INTERACTIONS_PER_PAIR)
          failures.push(`genuine #${genuine} → ${response.status} ${JSON.stringify(body)}`);
      } else if (sample.kind === 'throwaway' || sample.kind === 'self') {
        const who = sample.kind === 'self' ? target : throwaway;
        const response = await send(who, { target: target.address, source: who.address });
        if (response.status !== 200 || (await json<{ counted: boolean }>(response)).counted) failures.push(`${sample.kind} counted`);
      } else if (sample.kind === 'stranger') {
        await expectRefusal(await send(throwaway, { target: target.address, source: source.address }), 'detail', 'stranger', failures, 403);
      } else {
        const response = await send(source, sample.body);
        if (response.status === 200) failures.push(`malformed body accepted: ${JSON.stringify(sample.body)}`);
        else await expectRefusal(response, 'detail', `malformed ${JSON.stringify(sample.body)}`, failures);
      }
    }
    expect(failures).toEqual([]);
    expect(genuine).toBeGreaterThan(DAILY_INTERACTIONS_PER_PAIR);
    expect(await interactions(key, target)).toBe(DAILY_INTERACTIONS_PER_PAIR);
  });

  it('random bad envelopes at the proxy: 4xx {detail}, nobody called, nothing counted', { timeout: 120_000 }, async () => {
    const { key, target, source } = await agentPair();
    const outbound = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => Response.json({ status: 'success' }));
    const genuine = () => buildEnvelope({ sender: source, target: target.address, schemaDigest: 'model:x', payload: { request: 'hello' } });
    const tamper = fc.constantFrom('payload', 'session', 'schema_digest', 'expires', 'nonce', 'signature', 'sender', 'extra');
    const envelope = fc.oneof(
      tamper.map((field) => {
        const signed = JSON.parse(serializeEnvelope(genuine())) as Record<string, unknown>;
        const other = JSON.parse(
          serializeEnvelope(
            buildEnvelope({ sender: freshIdentity(), target: target.address, schemaDigest: 'model:y', payload: { request: 'other' } }),
          ),
        ) as Record<string, unknown>;
        if (field === 'extra') return JSON.stringify({ ...signed, unsigned: 'x' });
        if (field === 'expires') return JSON.stringify({ ...signed, expires: Math.floor(Date.now() / 1000) - 10 });
        if (field === 'nonce') return JSON.stringify({ ...signed, nonce: 1 });
        return JSON.stringify({ ...signed, [field]: other[field] });
      }),
      fc
        .constant(0)
        .map(() =>
          serializeEnvelope(buildEnvelope({ sender: source, target: freshIdentity().address, schemaDigest: 'model:x', payload: {} })),
        ),
      fc.json({ maxDepth: 2 }),
      fc.string({ maxLength: 100 }),
      fc.integer({ min: 1, max: 64 }).map((extra) => `{"version":1,"sender":"${'a'.repeat(1024 * 1024 + extra)}"}`),
    );
    const failures: string[] = [];
    for (const text of fc.sample(envelope, { numRuns: 80, seed: SEED })) {
      const response = await api('/v2/agents/proxy/submit', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: text,
      });
      await expectRefusal(response, 'detail', text.slice(0, 120), failures);
    }
    expect(failures).toEqual([]);
    expect(outbound).not.toHaveBeenCalled();
    expect(await interactions(key, target)).toBe(0);
  });
});

describe('fuzz: click feedback stays within its cap', () => {
  it('random clicks from one account, across searches, agents and bad bodies: never a 5xx, at most the daily cap per agent', {
    timeout: 120_000,
  }, async () => {
    const { target, source } = await agentPair();
    const clicker = await newKey(['read']);
    const searchId = async () => {
      const response = await api('/v1/search/agents', { method: 'POST', token: clicker.key, json: { search_text: 'test agent' } });
      return (await json<{ search_id: string }>(response)).search_id;
    };
    const click = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({ kind: fc.constant('click'), agent: fc.constantFrom(target.address, source.address), page_index: fc.nat(5) }),
      },
      fc.record({
        kind: fc.constant('bad'),
        body: fc.record(
          { search_id: fc.oneof(fc.uuid(), fc.string()), address: fc.string(), page_index: fc.anything({ maxDepth: 1 }) },
          { requiredKeys: [] },
        ),
      }),
    );
    const failures: string[] = [];
    const tried = new Map<string, number>();
    for (const sample of fc.sample(click, { numRuns: 50, seed: SEED })) {
      if (sample.kind === 'click') {
        tried.set(sample.agent, (tried.get(sample.agent) ?? 0) + 1);
        const response = await api('/v1/search/agents/click', {
          method: 'POST',
          token: clicker.key,
          json: { search_id: await searchId(), address: sample.agent, page_index: sample.page_index },
        });
        if (response.status !== 200) failures.push(`click → ${response.status}`);
        await response.body?.cancel();
      } else {
        await expectRefusal(
          await api('/v1/search/agents/click', { method: 'POST', token: clicker.key, json: sample.body }),
          'platform',
          JSON.stringify(sample.body),
          failures,
        );
      }
    }
    expect(failures).toEqual([]);
    const counted = await env.DB.prepare(
      'SELECT address, count(*) AS clicks FROM search_clicks WHERE account_id = ? GROUP BY address ORDER BY address',
    )
      .bind(clicker.account_id)
      .all<{ address: string; clicks: number }>();
    const expected = [...tried].map(([address, clicks]) => ({ address, clicks: Math.min(clicks, DAILY_CLICKS_PER_AGENT) }));
    expect([...tried.values()].every((clicks) => clicks > DAILY_CLICKS_PER_AGENT)).toBe(true);
    expect(counted.results).toEqual(expected.sort((a, b) => (a.address < b.address ? -1 : 1)));
  });
});
