import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentDetail, AlmanacRecord } from '../../schemas/registry.ts';
import type { AgentRecord, AgentSearchResponse } from '../../schemas/search.ts';
import { api, freshIdentity, json, migrate, newKey, registered } from './helpers.ts';

beforeAll(migrate);

const FINANCE_BADGE = '![tag:domain/finance](https://img.shields.io/badge/finance-3D8BD3)';

/** The same agent as search (a text search and a browse), detail and the almanac show it. */
async function views(address: string, word: string, token: string) {
  const search = async (body: Record<string, unknown>): Promise<AgentRecord> => {
    const response = await api('/v1/search/agents', { method: 'POST', token, json: { ...body, limit: 100 } });
    expect(response.status).toBe(200);
    const found = (await json<AgentSearchResponse>(response)).agents.find((agent) => agent.address === address);
    if (!found) throw new Error(`search ${JSON.stringify(body)} did not find ${address}`);
    return found;
  };
  const detail = await api(`/v2/agents/${address}`, { token });
  const almanac = await api(`/v1/almanac/agents/${address}`);
  expect([detail.status, almanac.status]).toEqual([200, 200]);
  return {
    lexical: await search({ search_text: word }),
    browse: await search({ filters: { tags: [word] } }),
    detail: await json<AgentDetail>(detail),
    almanac: await json<AlmanacRecord>(almanac),
  };
}

function expectAgreement({ lexical, browse, detail, almanac }: Awaited<ReturnType<typeof views>>) {
  const recordFields = Object.keys(lexical) as (keyof AgentRecord)[];
  expect(recordFields.length).toBeGreaterThan(10);
  const fromDetail = Object.fromEntries(recordFields.map((field) => [field, detail[field]]));
  expect(lexical).toEqual(fromDetail);
  expect(browse).toEqual(fromDetail);
  const almanacFields = ['address', 'name', 'url', 'endpoints', 'metadata', 'last_updated'] as const;
  expect(Object.fromEntries(almanacFields.map((field) => [field, almanac[field]]))).toEqual(
    Object.fromEntries(almanacFields.map((field) => [field, detail[field]])),
  );
  expect(almanac.protocols).toEqual(detail.protocols.map((digest) => digest.replace(/^proto:/, '')));
  // The almanac's status is uAgents' (active, inactive, offline): a local agent is not reachable, so offline there.
  expect(almanac.status).toBe(!detail.is_active ? 'inactive' : detail.status === 'active' ? 'active' : 'offline');
}

describe('search, detail and the almanac show an agent alike', () => {
  let token: string;
  beforeAll(async () => {
    token = (await newKey(['read', 'write'])).key;
  });

  it('for an agent registered with every field', async () => {
    const identity = freshIdentity();
    const word = `quokka${crypto.randomUUID().slice(0, 8)}`;
    const response = await registered(identity, token, {
      name: `Agreeable ${word}`,
      handle: word,
      profile: {
        description: 'Agrees with itself',
        readme: `# Agreeable\n\n![tag:${word}](https://img.shields.io/badge/${word}-blue) ${FINANCE_BADGE}`,
        avatar_url: 'https://img.example.com/a.png',
        starter_prompts: ['What do you agree with?'],
      },
      protocols: [`proto:${'a'.repeat(64)}`],
      metadata: { region: 'eu', labels: ['x', 'y'] },
      geo_location: { latitude: 48.85, longitude: 2.35, city: 'Paris' },
      endpoints: [
        { url: 'https://agents.example.com/a', weight: 2 },
        { url: 'https://agents.example.com/b', weight: 1 },
      ],
    });
    expect(response.status).toBe(200);
    const seen = await views(identity.address, word, token);
    expect(seen.detail).toMatchObject({
      status: 'active',
      tags: [word, 'finance'],
      domain_tags: [{ domain: 'finance', label: 'finance', color: '3d8bd3' }],
      geo_location: { city: 'Paris' },
      metadata: { region: 'eu' },
      profile: {
        description: 'Agrees with itself',
        avatar_url: 'https://img.example.com/a.png',
        banner_url: null,
        starter_prompts: ['What do you agree with?'],
      },
      endpoints: [
        { url: 'https://agents.example.com/a', weight: 2 },
        { url: 'https://agents.example.com/b', weight: 1 },
      ],
    });
    expectAgreement(seen);
  });

  it('for a local agent, and when stored JSON columns hold values of another shape', async () => {
    const identity = freshIdentity();
    const word = `wombat${crypto.randomUUID().slice(0, 8)}`;
    const local = 'http://127.0.0.1:9/webhook';
    const response = await registered(identity, token, {
      name: `Odd ${word}`,
      profile: { description: 'Odd', readme: `# Odd\n\n![tag:${word}](https://img.shields.io/badge/${word}-blue)` },
      url: local,
      endpoints: [{ url: local, weight: 1 }],
    });
    expect(response.status).toBe(200);
    // A hand-edited row: each column reads as what it can hold, the same way for every view.
    await env.DB.prepare(`UPDATE agents SET tags = ?, geo_location = ?, protocols = ?, metadata = ? WHERE address = ?`)
      .bind(JSON.stringify([word, 7, null]), '[1, 2]', 'not json', '"text"', identity.address)
      .run();
    const seen = await views(identity.address, word, token);
    expect(seen.detail).toMatchObject({ status: 'local', tags: [word], geo_location: null, protocols: [], metadata: null });
    expectAgreement(seen);
  });
});
