import { beforeAll, describe, expect, it } from 'vitest';
import { ownAgentsResponseSchema } from '../../schemas/own-agents.ts';
import { api, freshIdentity, json, migrate, newKey, registered } from './helpers.ts';

const README_WITH_PAYLOAD = `# Filings analyst

<payload_requirements><payload><requirement>
<parameter>request</parameter><description>the question</description>
</requirement></payload></payload_requirements>
`;

beforeAll(migrate);

describe('GET /v2/agents (the key’s own agents)', () => {
  it('lists the calling account’s agents with status and declared functions, and no other tenant’s', async () => {
    const operator = await newKey(['read', 'write']);
    const tenant = await newKey(['read', 'write']);
    const mine = freshIdentity();
    const theirs = freshIdentity();
    expect(
      (
        await registered(mine, operator.key, {
          url: 'http://localhost:5008/webhook',
          profile: { description: 'x', readme: README_WITH_PAYLOAD, avatar_url: '', starter_prompts: [] },
        })
      ).status,
    ).toBe(200);
    expect((await registered(theirs, tenant.key)).status).toBe(200);

    const response = await api('/v2/agents', { token: operator.key });
    expect(response.status).toBe(200);
    const body = ownAgentsResponseSchema.parse(await json(response));
    expect(body.agents.map((agent) => agent.address)).toEqual([mine.address]);
    expect(body.agents[0]!.status).toBe('local');
    expect(body.agents[0]!.functions.flatMap((fn) => fn.parameters.map((parameter) => parameter.name))).toContain('request');

    const other = ownAgentsResponseSchema.parse(await json(await api('/v2/agents', { token: tenant.key })));
    expect(other.agents.map((agent) => agent.address)).toEqual([theirs.address]);
  });

  it('refuses a caller without a key as {detail}', async () => {
    const response = await api('/v2/agents');
    expect(response.status).toBe(401);
    expect(await json(response)).toHaveProperty('detail');
  });
});
