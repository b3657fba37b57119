import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { Identity } from '../../lib/identity/index.ts';
import type { AgentDetail, RegistrationResponse } from '../../schemas/registry.ts';
import { PYTHON_CHALLENGE_SIGNATURE, HELLO_0, HELLO_5, PRIMARY, UNICODE } from './fixtures/vectors.ts';
import { CHALLENGE_TTL_MS, MAX_OPEN_CHALLENGES } from '../../workers/registry/src/identity/ownership.ts';
import { api, freshIdentity, json, migrate, newKey, registered, registrationBody, statusUpdate } from './helpers.ts';

beforeAll(migrate);

const README = `# Market Pulse
  indented line kept as written\ttab
Unicode: ünïcødé 种子 🌱\r\nCRLF line

![tag:finance](https://img.shields.io/badge/finance-blue)
![tag:innovationlab](https://img.shields.io/badge/innovationlab-3D8BD3)
![tag:domain/finance](https://img.shields.io/badge/Financial_Analysis-3D8BD3)
![tag:domain/health](https://img.shields.io/badge/health-zz12xx)

<description>Reads SEC filings and answers questions about listed companies.</description>
<use_cases>
  <use_case>Summarise the latest 10-K of a company.</use_case>
  <use_case>Compare the revenue of two companies.</use_case>
</use_cases>
<payload_requirements>
<description>The request to send.</description>
<payload>
  <requirement>
    <parameter>request</parameter>
    <description>The question, in English.</description>
  </requirement>
  <requirement>
    <parameter>ticker</parameter>
    <description>Optional stock symbol.</description>
    <required>false</required>
  </requirement>
</payload>
</payload_requirements>
`;

describe('registration as uagents-core performs it', () => {
  it('404 → challenge → signed proof → POST /v2/agents → 200 → signed status → almanac lookup', async () => {
    const key = await newKey(['read', 'write']);
    const identity = Identity.fromSeed(HELLO_0.seed, HELLO_0.index);
    expect(identity.address).toBe(HELLO_0.address);

    const before = await api(`/v2/agents/${identity.address}`, { token: key.key });
    expect(before.status).toBe(404);
    expect(await json(before)).toEqual({ detail: 'agent not found' });

    const issued = await api(`/v2/identity/${identity.address}/challenge`, { token: key.key });
    expect(issued.status).toBe(200);
    const { challenge } = await json<{ challenge: string }>(issued);
    expect(challenge.length).toBeGreaterThan(20);

    const proof = await api('/v2/identity', {
      method: 'POST',
      token: key.key,
      json: { address: identity.address, challenge, challenge_response: identity.sign(challenge) },
    });
    expect(proof.status).toBe(200);
    expect(await json(proof)).toEqual({ address: identity.address });

    const reused = await api('/v2/identity', {
      method: 'POST',
      token: key.key,
      json: { address: identity.address, challenge, challenge_response: identity.sign(challenge) },
    });
    expect(reused.status).toBe(401);
    expect(await json(reused)).toEqual({ detail: expect.stringContaining('already used') });

    const created = await api('/v2/agents', {
      method: 'POST',
      token: key.key,
      json: registrationBody(identity, {
        name: 'Market Pulse',
        handle: 'market-pulse',
        url: 'https://pulse.example.com/webhook',
        profile: { description: 'filings', readme: README, avatar_url: '' },
        protocols: [`proto:${'a'.repeat(64)}`],
      }),
    });
    expect(created.status).toBe(200);
    const body = await json<RegistrationResponse>(created);
    expect(body.success).toBe(true);
    expect(body.created).toBe(true);
    expect(body.agent.readme).toBe(README);
    expect(body.readme.tags).toEqual(['finance', 'innovationlab']);
    expect(body.readme.domain_tags).toEqual([{ domain: 'finance', label: 'Financial Analysis', color: '3d8bd3' }]);
    expect(body.readme.invalid_domain_badges).toEqual([
      {
        badge: '![tag:domain/health](https://img.shields.io/badge/health-zz12xx)',
        reason: expect.stringContaining('"zz12xx" is not a six-digit hex colour'),
      },
    ]);
    expect(body.readme.description).toBe('Reads SEC filings and answers questions about listed companies.');
    expect(body.readme.use_cases).toEqual(['Summarise the latest 10-K of a company.', 'Compare the revenue of two companies.']);
    expect(body.readme.functions).toEqual([
      {
        name: 'payload',
        description: 'Reads SEC filings and answers questions about listed companies.',
        parameters: [
          { name: 'request', description: 'The question, in English.', required: true },
          { name: 'ticker', description: 'Optional stock symbol.', required: false },
        ],
      },
    ]);

    const stored = await env.DB.prepare('SELECT readme FROM agents WHERE address = ?').bind(identity.address).first<{ readme: string }>();
    expect(stored?.readme).toBe(README);

    const lookup = await api(`/v2/agents/${identity.address}`, { token: key.key });
    expect(lookup.status).toBe(200);
    const agent = await json<AgentDetail>(lookup);
    expect(agent).toMatchObject({
      address: identity.address,
      name: 'Market Pulse',
      readme: README,
      status: 'active',
      total_interactions: 0,
      recent_interactions: 0,
      rating: null,
      type: 'custom',
      category: 'community',
      featured: false,
      geo_location: null,
      handle: 'market-pulse',
      url: 'https://pulse.example.com/webhook',
      endpoints: [{ url: 'https://agents.example.com/webhook', weight: 1 }],
      protocols: [`proto:${'a'.repeat(64)}`],
      tags: ['finance', 'innovationlab'],
      description: 'Reads SEC filings and answers questions about listed companies.',
    });
    expect(agent.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(agent.last_updated).toBe(agent.created_at);

    const status = await api(`/v1/almanac/agents/${identity.address}/status`, { method: 'POST', json: statusUpdate(identity, true) });
    expect(status.status).toBe(200);
    expect(await json(status)).toEqual({ address: identity.address, is_active: true, status: 'active' });

    const almanac = await api(`/v1/almanac/agents/${identity.address}`);
    expect(almanac.status).toBe(200);
    expect(await json(almanac)).toMatchObject({
      address: identity.address,
      endpoints: [{ url: 'https://agents.example.com/webhook', weight: 1 }],
      url: 'https://pulse.example.com/webhook',
    });
  });

  it('accepts a challenge response signed by Python (high-s vector)', async () => {
    const key = await newKey(['write']);
    await env.DB.prepare('INSERT INTO challenges (challenge, address, account_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)')
      .bind(
        PYTHON_CHALLENGE_SIGNATURE.challenge,
        PYTHON_CHALLENGE_SIGNATURE.address,
        key.account_id,
        new Date().toISOString(),
        new Date(Date.now() + 60_000).toISOString(),
      )
      .run();
    const proof = await api('/v2/identity', {
      method: 'POST',
      token: key.key,
      json: {
        address: PYTHON_CHALLENGE_SIGNATURE.address,
        challenge: PYTHON_CHALLENGE_SIGNATURE.challenge,
        challenge_response: PYTHON_CHALLENGE_SIGNATURE.signature,
      },
    });
    expect(proof.status).toBe(200);
  });

  it('re-registration replaces fields, keeps created_at and bumps last_updated; 200 not 201', async () => {
    const key = await newKey(['read', 'write']);
    const identity = Identity.fromSeed(PRIMARY.seed, PRIMARY.index);
    const first = await json<RegistrationResponse>(await registered(identity, key.key));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const again = await api('/v2/agents', {
      method: 'POST',
      token: key.key,
      json: registrationBody(identity, { name: 'Renamed', url: 'https://new.example.com/webhook' }),
    });
    expect(again.status).toBe(200);
    const second = await json<RegistrationResponse>(again);
    expect(second.created).toBe(false);
    expect(second.agent).toMatchObject({ name: 'Renamed', url: 'https://new.example.com/webhook', created_at: first.agent.created_at });
    expect(second.agent.last_updated > first.agent.last_updated).toBe(true);
  });

  it('PUT and PATCH change fields (uagents AgentUpdates shape), DELETE removes at once', async () => {
    const key = await newKey(['read', 'write']);
    const identity = freshIdentity();
    await registered(identity, key.key);
    const put = await api(`/v2/agents/${identity.address}`, {
      method: 'PUT',
      token: key.key,
      json: { name: 'Updated', readme: '![tag:weather](x/y)', avatar_url: null, short_description: 'short', agent_type: 'custom' },
    });
    expect(put.status).toBe(200);
    expect((await json<RegistrationResponse>(put)).agent).toMatchObject({
      name: 'Updated',
      tags: ['weather'],
      readme: '![tag:weather](x/y)',
      description: 'short',
    });
    const patch = await api(`/v2/agents/${identity.address}`, {
      method: 'PATCH',
      token: key.key,
      json: { geo_location: { latitude: 51.5, longitude: -0.1 } },
    });
    expect(patch.status).toBe(200);
    expect((await json<RegistrationResponse>(patch)).agent).toMatchObject({
      name: 'Updated',
      geo_location: { latitude: 51.5, longitude: -0.1 },
    });

    const deleted = await api(`/v2/agents/${identity.address}`, { method: 'DELETE', token: key.key });
    expect(deleted.status).toBe(200);
    expect(await json(deleted)).toEqual({ address: identity.address, deleted: true });
    expect((await api(`/v2/agents/${identity.address}`, { token: key.key })).status).toBe(404);
    expect((await api(`/v1/almanac/agents/${identity.address}`)).status).toBe(404);
    expect((await api(`/v2/agents/${identity.address}`, { method: 'DELETE', token: key.key })).status).toBe(404);
  });

  it('a deleted agent can be registered again by its owner without a new proof', async () => {
    const key = await newKey(['read', 'write']);
    const identity = freshIdentity();
    await registered(identity, key.key);
    await api(`/v2/agents/${identity.address}`, { method: 'DELETE', token: key.key });
    const again = await api('/v2/agents', { method: 'POST', token: key.key, json: registrationBody(identity) });
    expect(again.status).toBe(200);
  });

  it('a webhook on loopback or a private network makes the agent local', async () => {
    const key = await newKey(['read', 'write']);
    for (const url of [
      'http://localhost:5008/webhook',
      'http://127.0.0.1:5001/webhook',
      'http://192.168.1.20/webhook',
      'http://[::1]:8000/submit',
      'http://router/webhook',
    ]) {
      const identity = freshIdentity();
      const response = await registered(identity, key.key, { url, endpoints: [{ url, weight: 1 }] });
      expect((await json<RegistrationResponse>(response)).agent.status, url).toBe('local');
    }
  });
});

describe('nobody takes over an address or a handle', () => {
  it('another account cannot get a challenge for, prove, register, update or delete an owned address', async () => {
    const owner = await newKey(['read', 'write']);
    const thief = await newKey(['read', 'write']);
    const identity = Identity.fromSeed(HELLO_5.seed, HELLO_5.index);
    await registered(identity, owner.key);

    const challenge = await api(`/v2/identity/${identity.address}/challenge`, { token: thief.key });
    expect(challenge.status).toBe(409);
    expect(await json(challenge)).toEqual({ detail: expect.stringContaining('owned by another account') });

    const register = await api('/v2/agents', {
      method: 'POST',
      token: thief.key,
      json: registrationBody(identity, { url: 'https://evil.example.com/webhook' }),
    });
    expect(register.status).toBe(409);
    const update = await api(`/v2/agents/${identity.address}`, { method: 'PUT', token: thief.key, json: { name: 'Stolen' } });
    expect(update.status).toBe(409);
    const remove = await api(`/v2/agents/${identity.address}`, { method: 'DELETE', token: thief.key });
    expect(remove.status).toBe(409);
    const agent = await json<AgentDetail>(await api(`/v2/agents/${identity.address}`, { token: owner.key }));
    expect(agent.url).toBe('https://agents.example.com/webhook');
  });

  it('a valid key with the wrong seed cannot prove an address', async () => {
    const key = await newKey(['write']);
    const victim = Identity.fromSeed(UNICODE.seed, UNICODE.index);
    expect(victim.address).toBe(UNICODE.address);
    const attacker = Identity.fromSeed('not the seed', 0);
    const { challenge } = await json<{ challenge: string }>(await api(`/v2/identity/${victim.address}/challenge`, { token: key.key }));
    const proof = await api('/v2/identity', {
      method: 'POST',
      token: key.key,
      json: { address: victim.address, challenge, challenge_response: attacker.sign(challenge) },
    });
    expect(proof.status).toBe(401);
    expect(await json(proof)).toEqual({ detail: expect.stringContaining('not a signature of the challenge') });
    const register = await api('/v2/agents', { method: 'POST', token: key.key, json: registrationBody(victim) });
    expect(register.status).toBe(403);
    expect(await json(register)).toEqual({ detail: expect.stringContaining('prove you hold') });
  });

  it('a challenge is bound to the account and address it was issued for, and expires', async () => {
    const alice = await newKey(['write']);
    const bob = await newKey(['write']);
    const identity = freshIdentity();
    const other = freshIdentity();
    const { challenge } = await json<{ challenge: string }>(await api(`/v2/identity/${identity.address}/challenge`, { token: alice.key }));
    const byBob = await api('/v2/identity', {
      method: 'POST',
      token: bob.key,
      json: { address: identity.address, challenge, challenge_response: identity.sign(challenge) },
    });
    expect(byBob.status).toBe(401);
    const forOther = await api('/v2/identity', {
      method: 'POST',
      token: alice.key,
      json: { address: other.address, challenge, challenge_response: other.sign(challenge) },
    });
    expect(forOther.status).toBe(401);
    expect(await json(forOther)).toEqual({ detail: expect.stringContaining('issued for') });
    await env.DB.prepare('UPDATE challenges SET expires_at = ? WHERE challenge = ?')
      .bind(new Date(Date.now() - 1000).toISOString(), challenge)
      .run();
    const late = await api('/v2/identity', {
      method: 'POST',
      token: alice.key,
      json: { address: identity.address, challenge, challenge_response: identity.sign(challenge) },
    });
    expect(late.status).toBe(401);
    expect(await json(late)).toEqual({ detail: expect.stringContaining('expired') });
    const invented = await api('/v2/identity', {
      method: 'POST',
      token: alice.key,
      json: { address: identity.address, challenge: 'made-up', challenge_response: identity.sign('made-up') },
    });
    expect(invented.status).toBe(401);
  });

  it(`an account holds at most ${MAX_OPEN_CHALLENGES} unused challenges at once: then 429 with retry-after, until one is used`, async () => {
    const key = await newKey(['write']);
    const identities = Array.from({ length: MAX_OPEN_CHALLENGES }, () => freshIdentity());
    const issued: { challenge: string }[] = [];
    for (const identity of identities) {
      const response = await api(`/v2/identity/${identity.address}/challenge`, { token: key.key });
      expect(response.status).toBe(200);
      issued.push(await json<{ challenge: string }>(response));
    }
    const extra = freshIdentity();
    const refused = await api(`/v2/identity/${extra.address}/challenge`, { token: key.key });
    expect(refused.status).toBe(429);
    expect(await json(refused)).toEqual({ detail: expect.stringContaining('unused challenges') });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(CHALLENGE_TTL_MS / 1000);
    // Another account is not held back by this one.
    const other = await newKey(['write']);
    expect((await api(`/v2/identity/${extra.address}/challenge`, { token: other.key })).status).toBe(200);
    // Using one frees a place.
    const [first] = identities;
    const proof = await api('/v2/identity', {
      method: 'POST',
      token: key.key,
      json: { address: first!.address, challenge: issued[0]!.challenge, challenge_response: first!.sign(issued[0]!.challenge) },
    });
    expect(proof.status).toBe(200);
    expect((await api(`/v2/identity/${extra.address}/challenge`, { token: key.key })).status).toBe(200);
  });

  it('two accounts racing: the first proof wins, the second gets 409', async () => {
    const first = await newKey(['write']);
    const second = await newKey(['write']);
    const identity = freshIdentity();
    const a = await json<{ challenge: string }>(await api(`/v2/identity/${identity.address}/challenge`, { token: first.key }));
    const b = await json<{ challenge: string }>(await api(`/v2/identity/${identity.address}/challenge`, { token: second.key }));
    expect(
      (
        await api('/v2/identity', {
          method: 'POST',
          token: first.key,
          json: { address: identity.address, challenge: a.challenge, challenge_response: identity.sign(a.challenge) },
        })
      ).status,
    ).toBe(200);
    const lost = await api('/v2/identity', {
      method: 'POST',
      token: second.key,
      json: { address: identity.address, challenge: b.challenge, challenge_response: identity.sign(b.challenge) },
    });
    expect(lost.status).toBe(409);
  });

  it('a handle belongs to one agent (409)', async () => {
    const key = await newKey(['read', 'write']);
    const other = await newKey(['read', 'write']);
    await registered(freshIdentity(), key.key, { handle: 'unique-handle' });
    const clash = await registered(freshIdentity(), other.key, { handle: 'unique-handle' });
    expect(clash.status).toBe(409);
    expect(await json(clash)).toEqual({ detail: expect.stringContaining('handle "unique-handle" is taken') });
  });
});

describe('registration errors the SDK understands', () => {
  it('401 without a key or with a bad one, 403 without write, as {detail}', async () => {
    const identity = freshIdentity();
    for (const token of [null, 'garbage']) {
      const response = await api('/v2/agents', { method: 'POST', token, json: registrationBody(identity) });
      expect(response.status).toBe(401);
      expect(await json(response)).toEqual({ detail: expect.any(String) });
    }
    const reader = await newKey(['read']);
    const forbidden = await api('/v2/agents', { method: 'POST', token: reader.key, json: registrationBody(identity) });
    expect(forbidden.status).toBe(403);
    expect(await json(forbidden)).toEqual({ detail: expect.stringContaining('"write"') });
    expect((await api(`/v2/identity/${identity.address}/challenge`, { token: reader.key })).status).toBe(403);
    expect((await api(`/v2/agents/${identity.address}`, { token: (await newKey(['chat'])).key })).status).toBe(403);
  });

  it('406 for malformed data, naming what is wrong', async () => {
    const key = await newKey(['read', 'write']);
    const identity = freshIdentity();
    const cases: [unknown, string][] = [
      [{ ...registrationBody(identity), address: 'agent1notanaddress' }, 'address'],
      [{ ...registrationBody(identity), url: 'not a url' }, 'url'],
      [{ ...registrationBody(identity), protocols: ['proto:xyz'] }, 'protocols.0'],
      [{ ...registrationBody(identity), name: '' }, 'name'],
      [{ ...registrationBody(identity), handle: 'has spaces' }, 'handle'],
      [{ ...registrationBody(identity), profile: { readme: 'x'.repeat(80_001) } }, 'profile.readme'],
    ];
    for (const [body, field] of cases) {
      const response = await api('/v2/agents', { method: 'POST', token: key.key, json: body });
      expect(response.status, field).toBe(406);
      expect((await json<{ detail: string }>(response)).detail, field).toContain(field);
    }
    const notJson = await api('/v2/agents', {
      method: 'POST',
      token: key.key,
      headers: { 'content-type': 'application/json' },
      body: '{"address":',
    });
    expect(notJson.status).toBe(406);
    expect(await json(notJson)).toEqual({ detail: expect.any(String) });
    expect((await api('/v2/agents/agent1bad', { token: key.key })).status).toBe(406);
  });
});
