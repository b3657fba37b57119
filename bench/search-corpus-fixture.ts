import { writeFileSync } from 'node:fs';
import { generateAgents } from '../test/registry/fixtures/corpus/generate.ts';

/**
 * Writes search-corpus.json, the relevance test's corpus: 360 agents (ten per domain), seed 7.
 * Run: npx tsx bench/search-corpus-fixture.ts
 */
const agents = [...generateAgents(360, 7)];
writeFileSync(
  new URL('../test/registry/fixtures/search-corpus.json', import.meta.url),
  `${JSON.stringify({ seed: 7, agents }, null, 1)}\n`,
);
console.log(`wrote ${agents.length} agents`);
