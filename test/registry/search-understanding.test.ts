import { beforeAll, describe, expect, it } from 'vitest';
import { searchAgents, type SearchPage } from './fixtures/search-client.ts';
import { craftAgent } from './fixtures/search-seed.ts';
import { seedRegistry } from './fixtures/seeded-registry.ts';

/**
 * Request understanding through the search route, by default (docs/decisions/0184): filler phrases are not
 * searched, a word in passing in a README ranks below the agent whose title and description name the task, and
 * an agent matching one shared word of a request ranks below the agent matching most of it (coverage).
 */

const pollen = craftAgent(11, 'Hayfever Help', 'Pollen counts and allergy forecast.');
const wayfinder = craftAgent(12, 'Best Way', 'The best way between two places: walking directions.');
const figures = craftAgent(13, 'Figure Out', 'Figure out totals: figures into tables.');

const tides = craftAgent(21, 'Tide Tables', 'Tide times and heights for any harbour.');
const cafe = craftAgent(22, 'Harbour Cafe', 'Menu and opening hours of a harbour cafe.', {
  readme: '# Harbour Cafe\n\nMenu and opening hours. Tide times are posted by the door; the terrace floods at high tide.',
});

const carValue = craftAgent(
  31,
  'Trade-In Oracle',
  'Used car valuation: estimates the market price of a vehicle from make, model, year, mileage and condition.',
);
const golf = craftAgent(32, 'Fairway', 'Golf handicap calculator and scorecard keeper with course ratings.');

const diagnostics = craftAgent(51, 'Gearbox', 'Reads OBD-II diagnostic trouble codes and explains the engine warning.');
const gate = craftAgent(52, 'Gatewatch', 'Flight status tracker: delays, gate changes and cancellations.');

let token: string;
const addresses = (page: SearchPage) => page.agents.map((agent) => agent.address);

beforeAll(async () => {
  token = (await seedRegistry([pollen, wayfinder, figures, tides, cafe, carValue, golf, diagnostics, gate])).token;
});

describe('request understanding', () => {
  it('leaves filler phrases out: their words ("way", "figure") find nothing, the task ranks as if asked alone', async () => {
    const wrapped = await searchAgents(token, { search_text: 'I was wondering, is there a way to figure out the pollen today' });
    const bare = await searchAgents(token, { search_text: 'pollen today' });
    expect(addresses(wrapped)[0]).toBe(pollen.address);
    expect(addresses(wrapped)).not.toContain(wayfinder.address);
    expect(addresses(wrapped)).not.toContain(figures.address);
    expect(addresses(wrapped)).toEqual(addresses(bare));
  });

  it('ranks the agent whose title and description name the task above a README mentioning it in passing', async () => {
    const found = addresses(await searchAgents(token, { search_text: 'tide times' }));
    expect(found).toContain(cafe.address);
    expect(found.indexOf(tides.address)).toBeLessThan(found.indexOf(cafe.address));
  });

  it('ranks an agent matching one shared word of the request ("Golf", the car) below the agent for the task', async () => {
    const found = addresses(await searchAgents(token, { search_text: 'what would a dealer give me for my 2015 Golf with 90k miles' }));
    expect(found[0]).toBe(carValue.address);
    expect(found).toContain(golf.address);
  });

  it('reads a fault code or a flight number as the domain it stands for', async () => {
    expect(addresses(await searchAgents(token, { search_text: 'P0301 came up' }))[0]).toBe(diagnostics.address);
    expect(addresses(await searchAgents(token, { search_text: 'is LH441 leaving' }))[0]).toBe(gate.address);
  });
});
