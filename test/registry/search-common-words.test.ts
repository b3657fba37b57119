import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { MATCH_ALONE_MAX_DOCS } from '../../workers/registry/src/search/text/expand.ts';
import { allPages, searchAgents, type SearchPage } from './fixtures/search-client.ts';
import { craftAgent } from './fixtures/search-seed.ts';
import { seedRegistry } from './fixtures/seeded-registry.ts';

/**
 * Words too frequent to match alone (expand.ts, MATCH_ALONE_MAX_DOCS): with a rarer word in the query, an agent
 * must match a rarer one. The frequencies expansion reads come from the search_words vocabulary; reaching the
 * threshold there takes that many documents, added straight to it (no agents, no other index), so a handful
 * of agents can show the behaviour.
 */

const both = craftAgent(1, 'Ubiquitous Parcel Tracker', 'Tracks every parcel, ubiquitous coverage.');
const rareOnly = craftAgent(2, 'Parcel Courier', 'Delivers a parcel.');
const frequentOnly = craftAgent(3, 'Ubiquitous Widget', 'A ubiquitous widget.');
const twoFrequent = craftAgent(4, 'Omnipresent Ubiquitous Helper', 'Omnipresent help.');
const unrelated = craftAgent(5, 'Jazz Radio', 'Plays jazz.');

let token: string;
const addresses = (page: SearchPage) => page.agents.map((agent) => agent.address);

async function makeFrequent(word: string, offset: number) {
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
     INSERT INTO search_words (rowid, body) SELECT ?2 + i, ?3 FROM n`,
  )
    .bind(MATCH_ALONE_MAX_DOCS, offset, word)
    .run();
}

beforeAll(async () => {
  token = (await seedRegistry([both, rareOnly, frequentOnly, twoFrequent, unrelated])).token;
  await makeFrequent('ubiquitous', 1_000_000);
  await makeFrequent('omnipresent', 2_000_000);
});

describe('words too frequent to match alone', () => {
  it('with a rarer word, find only agents that have a rarer word', async () => {
    const page = await searchAgents(token, { search_text: 'ubiquitous parcel' });
    expect(new Set(addresses(page))).toEqual(new Set([both.address, rareOnly.address]));
    expect(page.total).toBe(2);
  });

  it('alone, or with only other frequent words, find every agent that has one', async () => {
    expect(new Set(addresses(await searchAgents(token, { search_text: 'ubiquitous' })))).toEqual(
      new Set([both.address, frequentOnly.address, twoFrequent.address]),
    );
    const page = await searchAgents(token, { search_text: 'omnipresent ubiquitous' });
    expect(addresses(page)[0]).toBe(twoFrequent.address);
    expect(new Set(addresses(page))).toEqual(new Set([both.address, frequentOnly.address, twoFrequent.address]));
  });

  it('pages through the narrowed matches with an exact total', async () => {
    const pages = await allPages(token, { search_text: 'ubiquitous parcel tracker' }, 1);
    const seen = pages.flatMap(addresses);
    expect(seen).toEqual([both.address, rareOnly.address]);
    expect(pages.every((page) => page.total === 2)).toBe(true);
  });
});
