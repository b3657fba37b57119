import { applyD1Migrations, env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateAgents } from './fixtures/corpus/generate.ts';
import { searchAgents } from './fixtures/search-client.ts';
import { accountWithKey, insertAgents, type SeedAgent } from './fixtures/search-seed.ts';

/**
 * Query expansion (typo corrections, the prefix of the word being typed) widens what the user typed, never turns
 * an ordinary word into another one: an English word absent from the registry is still what was meant. Lexical
 * search only (`semantic_search: false`), so expansion alone decides what is found.
 */
const [a, b, c, d] = [...generateAgents(4, 251)];
const plain = {
  tags: [],
  protocols: [],
  is_active: true,
  featured: false,
  recent_interactions: 0,
  geo_location: null,
  last_probe_ok: null,
};
const traits: SeedAgent = {
  ...a!,
  ...plain,
  name: 'Personality Traits Analyzer',
  description: 'Scores personality traits from a questionnaire.',
  readme: '# Personality Traits Analyzer\n\nBig five traits.',
};
const coach: SeedAgent = {
  ...b!,
  ...plain,
  name: 'Career Change Coach',
  description: 'Coaching for transitions between careers.',
  readme: '# Career Change Coach\n\nPlans for career transitions.',
};
const weather: SeedAgent = {
  ...c!,
  ...plain,
  name: 'Weather Forecast',
  description: 'Forecasts for any city.',
  readme: '# Weather Forecast\n\nHourly forecasts.',
};

const portfolio: SeedAgent = {
  ...d!,
  ...plain,
  name: 'Portfolio Rebalancer',
  description: 'Brings a portfolio back to its target allocation.',
  readme: '# Portfolio Rebalancer\n\nTarget weights and trades.',
};

let token: string;
const names = async (text: string) =>
  (await searchAgents(token, { search_text: text, semantic_search: false })).agents.map((agent) => agent.name);

beforeAll(async () => {
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
  const owner = await accountWithKey(env.DB);
  token = owner.token;
  await insertAgents(env.DB, owner.accountId, [traits, coach, weather, portfolio]);
});

describe('query expansion keeps ordinary words', () => {
  it('a dictionary word is not corrected into its one-edit neighbour ("trains" is not "traits")', async () => {
    expect(await names('trains')).toEqual([]);
  });

  it('a word that is not one is still corrected', async () => {
    expect(await names('wether forcast')).toEqual([weather.name]);
    expect(await names('traitts')).toEqual([traits.name]);
  });

  it('a sentence ending in a finished word does not widen it to a prefix ("port" is not "portfolio")', async () => {
    expect(await names('ships arriving at the port')).toEqual([]);
  });

  it('a short query still completes the word being typed', async () => {
    expect(await names('transi')).toEqual([coach.name]);
    expect(await names('port')).toEqual([portfolio.name]);
    expect((await names('personality tra'))[0]).toBe(traits.name);
  });
});
