import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { decodePayload } from '../../lib/envelope/index.ts';
import { Identity } from '../../lib/identity/index.ts';
import { createAttestation, signVerifiableModel } from '../../lib/registry-client/index.ts';
import type { StoredEnvelope } from '../../schemas/mailbox.ts';
import { addressOf, agentsRegistered, postJson } from './helpers.ts';

beforeAll(agentsRegistered);

const MAILBOX_ENDPOINT = 'http://registry.test/v2/agents/mailbox/submit';

/** An agent with no URL of its own, in the almanac with the registry's mailbox as its endpoint (uAgents: mailbox=True). */
async function mailboxAgent(): Promise<Identity> {
  const agent = Identity.fromSeed(`agent-runtime mailbox agent ${crypto.randomUUID()}`, 0);
  const attestation = signVerifiableModel(agent, {
    agent_identifier: agent.address,
    protocols: [],
    endpoints: [{ url: MAILBOX_ENDPOINT, weight: 1 }],
    metadata: null,
    timestamp: Math.floor(Date.now() / 1000),
  });
  const response = await env.REGISTRY.fetch('http://registry.test/v1/almanac/agents', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(attestation),
  });
  expect(response.status).toBe(200);
  return agent;
}

async function inbox(agent: Identity): Promise<StoredEnvelope[]> {
  const response = await env.REGISTRY.fetch(`http://registry.test/v2/agents/${agent.address}/mailbox`, {
    headers: { authorization: `Agent ${createAttestation(agent, 60)}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as StoredEnvelope[];
}

describe('lib/agent senders reach an agent connected by mailbox', () => {
  it('alice’s send resolves the agent to the mailbox endpoint; the signed envelope waits in its inbox', async () => {
    const dave = await mailboxAgent();
    const { session } = await postJson<{ session: string }>('/test/alice/send', { to: dave.address, text: 'for your inbox', count: 2 });
    const stored = await vi.waitFor(
      async () => {
        const items = await inbox(dave);
        expect(items).toHaveLength(2);
        return items;
      },
      { timeout: 20_000, interval: 200 },
    );
    for (const item of stored) {
      expect(item.envelope).toMatchObject({ sender: await addressOf('alice'), target: dave.address, session });
      expect(typeof item.envelope.signature).toBe('string');
    }
    const payloads = stored.map((item) => JSON.parse(decodePayload(item.envelope.payload as string)) as { seq: number });
    expect(payloads.map((payload) => payload.seq).sort()).toEqual([0, 1]);
  });
});
