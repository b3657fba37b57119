import { beforeAll, describe, expect, it } from 'vitest';
import type { FunctionSearchResponse } from '../../schemas/search.ts';
import { api, freshIdentity, json, migrate, newKey, registered } from './helpers.ts';

const README = `# Unlisted agent
<payload_requirements>
<description>The request to send.</description>
<payload>
  <requirement>
    <parameter>request</parameter>
    <description>The question, in English.</description>
  </requirement>
</payload>
</payload_requirements>
`;

beforeAll(migrate);

/** An agent with one declared function, registered, then made unlisted (`public: false`); its owner's key. */
async function unlistedAgent() {
  const owner = await newKey(['read', 'write']);
  const identity = freshIdentity();
  const response = await registered(identity, owner.key, {
    profile: { description: 'unlisted', readme: README, avatar_url: '', starter_prompts: [] },
  });
  expect(response.status).toBeLessThan(300);
  const unlisted = await api(`/v2/agents/${identity.address}`, { method: 'PUT', token: owner.key, json: { public: false } });
  expect(unlisted.status).toBe(200);
  return { owner, identity };
}

describe('an agent registered with public: false', () => {
  it('is in no function search', async () => {
    const { owner, identity } = await unlistedAgent();
    const other = await newKey(['read']);
    for (const token of [owner.key, other.key]) {
      const response = await api('/v1/search/functions', {
        method: 'POST',
        token,
        json: { filters: { agent_address: [identity.address] }, limit: 10 },
      });
      expect(response.status).toBe(200);
      expect((await json<FunctionSearchResponse>(response)).functions).toEqual([]);
    }
  });

  it('is shown in detail (GET /v2/agents/{address}) to its owner only; other accounts get 404', async () => {
    const { owner, identity } = await unlistedAgent();
    const mine = await api(`/v2/agents/${identity.address}`, { token: owner.key });
    expect(mine.status).toBe(200);
    expect(await json(mine)).toMatchObject({ address: identity.address, public: false });
    const other = await newKey(['read']);
    const theirs = await api(`/v2/agents/${identity.address}`, { token: other.key });
    expect(theirs.status).toBe(404);
    expect(await json(theirs)).toEqual({ detail: 'agent not found' });
  });

  it('still resolves by its exact address in the almanac (senders must reach it), with endpoints only', async () => {
    const { identity } = await unlistedAgent();
    const response = await api(`/v1/almanac/agents/${identity.address}`);
    expect(response.status).toBe(200);
    const record = await json(response);
    expect(record).toMatchObject({ address: identity.address, registered: true });
    expect(JSON.stringify(record)).not.toContain('Unlisted agent');
  });
});
