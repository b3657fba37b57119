import { beforeAll, describe, expect, it } from 'vitest';
import { generateAgents } from './fixtures/corpus/generate.ts';
import { searchAgents } from './fixtures/search-client.ts';
import { PLAIN_LISTING, type SeedAgent } from './fixtures/search-seed.ts';
import { seedRegistry } from './fixtures/seeded-registry.ts';

/**
 * Payload field names as callers type them: snake_case as the README declares them, camelCase as a JavaScript
 * client names them. Either names the field, its parts side by side, not its parts as loose words (docs/decisions/0210).
 */
const [a, b] = [...generateAgents(2, 977)];
const trains: SeedAgent = {
  ...a!,
  ...PLAIN_LISTING,
  name: 'Railhopper',
  description: 'Train tickets and timetables across Europe.',
  readme: [
    '# Railhopper',
    '<payload_requirements><payload>',
    '<requirement><parameter>from_station</parameter><description>departure</description></requirement>',
    '<requirement><parameter>to_station</parameter><description>arrival</description></requirement>',
    '</payload></payload_requirements>',
  ].join('\n'),
};
const climate: SeedAgent = {
  ...b!,
  ...PLAIN_LISTING,
  name: 'Almanac Archive',
  description: 'Past temperatures from any weather station, station records from 1900.',
  readme: '# Almanac Archive\n\nRainfall records by station and town.',
};

let token: string;
const names = async (text: string) => (await searchAgents(token, { search_text: text })).agents.map((agent) => agent.name);

beforeAll(async () => {
  token = (await seedRegistry([trains, climate])).token;
});

describe('payload field names', () => {
  it('a snake_case field name finds the agent declaring it before one using its parts apart', async () => {
    expect((await names('from_station to_station'))[0]).toBe(trains.name);
  });

  it('a camelCase field name finds the agent declaring it in snake_case', async () => {
    expect((await names('fromStation toStation'))[0]).toBe(trains.name);
  });
});
