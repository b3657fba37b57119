import { beforeAll, describe, expect, it } from 'vitest';
import { generateAgents } from './fixtures/corpus/generate.ts';
import { searchAgents } from './fixtures/search-client.ts';
import { PLAIN_LISTING, type SeedAgent } from './fixtures/search-seed.ts';
import { seedRegistry } from './fixtures/seeded-registry.ts';

/**
 * Query expansion (typo corrections, the prefix of the word being typed) widens what the user typed, never turns
 * an ordinary word into another one: an English word absent from the registry is still what was meant. Lexical
 * search only (`semantic_search: false`), so expansion alone decides what is found.
 */
const [a, b, c, d] = [...generateAgents(4, 251)];
const traits: SeedAgent = {
  ...a!,
  ...PLAIN_LISTING,
  name: 'Personality Traits Analyzer',
  description: 'Scores personality traits from a questionnaire.',
  readme: '# Personality Traits Analyzer\n\nBig five traits.',
};
const coach: SeedAgent = {
  ...b!,
  ...PLAIN_LISTING,
  name: 'Career Change Coach',
  description: 'Coaching for transitions between careers.',
  readme: '# Career Change Coach\n\nPlans for career transitions.',
};
const weather: SeedAgent = {
  ...c!,
  ...PLAIN_LISTING,
  name: 'Weather Forecast',
  description: 'Forecasts for any city.',
  readme: '# Weather Forecast\n\nHourly forecasts.',
};

const portfolio: SeedAgent = {
  ...d!,
  ...PLAIN_LISTING,
  name: 'Portfolio Rebalancer',
  description: 'Brings a portfolio back to its target allocation.',
  readme: '# Portfolio Rebalancer\n\nTarget weights and trades.',
};

let token: string;
const names = async (text: string) =>
  (await searchAgents(token, { search_text: text, semantic_search: false })).agents.map((agent) => agent.name);

beforeAll(async () => {
  token = (await seedRegistry([traits, coach, weather, portfolio])).token;
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
