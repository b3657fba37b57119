import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentSearchResponse } from '../../schemas/search.ts';
import worker from '../../workers/registry/src/index.ts';
import { generateAgents } from './fixtures/corpus/generate.ts';
import { PLAIN_LISTING, type SeedAgent } from './fixtures/search-seed.ts';
import { seedRegistry } from './fixtures/seeded-registry.ts';
import { StandInIndex } from './fixtures/vector-index-stand-in.ts';

/**
 * A payload field name is left to the lexical ranking wherever the semantic source reads the request (decision
 * 0210), also when it is the last word before the full stop the semantic text adds: deployed, and offline when
 * expansion adds alternatives. Read as the words "sleep" and "log" it listed agents for server logs and bedtime
 * (docs/decisions/0217, third pass). Deployed here means Workers AI and Vectorize bound, Vectorize still empty (a
 * deployment before its first sync), so only the offline half of the deployed source answers.
 */
const ai = {
  async run(_model: string, input: { text: string[] }) {
    return { data: input.text.map(() => [1]) };
  },
};
const [a, b, c] = [...generateAgents(3, 978)];
const diary: SeedAgent = {
  ...a!,
  ...PLAIN_LISTING,
  name: 'Night Owl',
  description: 'A wellness diary.',
  readme: [
    '# Night Owl',
    '<payload_requirements><payload>',
    '<requirement><parameter>sleep_log</parameter><description>nights</description></requirement>',
    '</payload></payload_requirements>',
  ].join('\n'),
};
const journals: SeedAgent = {
  ...b!,
  ...PLAIN_LISTING,
  name: 'Journal Watch',
  description: 'Anomalies in server journals and system events.',
  readme: '# Journal Watch',
};
const lullaby: SeedAgent = {
  ...c!,
  ...PLAIN_LISTING,
  name: 'Lullaby',
  description: 'Bedtime stories to fall asleep and insomnia help.',
  readme: '# Lullaby',
};

let token: string;
async function names(text: string, deployed: boolean) {
  const ctx = createExecutionContext();
  const request = new Request('http://registry.test/v1/search/agents', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ search_text: text }),
  });
  const bindings = deployed ? { ...env, AI: ai as unknown as Ai, VECTORIZE: new StandInIndex() as unknown as VectorizeIndex } : env;
  const response = await worker.fetch(request, bindings, ctx);
  await waitOnExecutionContext(ctx);
  expect(response.status).toBe(200);
  return ((await response.json()) as AgentSearchResponse).agents.map((agent) => agent.name);
}

beforeAll(async () => {
  token = (await seedRegistry([diary, journals, lullaby])).token;
});

describe('a field name before the semantic text full stop', () => {
  it('deployed, a request of one field name lists the agent declaring it, as offline', async () => {
    expect(await names('sleep_log', false)).toEqual([diary.name]);
    expect(await names('sleep_log', true)).toEqual([diary.name]);
  });

  it('offline, a field name after a misspelt word lists the agent declaring it', async () => {
    expect(await names('wellnes sleep_log', false)).toEqual([diary.name]);
  });
});
