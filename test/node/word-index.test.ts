import { describe, expect, it } from 'vitest';
import { wordRank, wordTable } from '../../lib/word-vectors/table.ts';

/** The generated index (scripts/word-index.ts) against the word list it was built from: stale, and this fails. */
describe('word table index', () => {
  const { words } = wordTable();

  it('finds every word of the table at its frequency rank', () => {
    const wrong = words.filter((word, rank) => wordRank(word) !== rank);
    expect(wrong).toEqual([]);
    expect(words.length).toBe(45_000);
  });

  it('finds no word outside the table', () => {
    const outside = ['', 'zzqx', 'parcels1', 'wether', 'The', 'café', 'the ', `${words[0]}${words[1]}`];
    for (const word of outside) expect(words.includes(word)).toBe(false);
    expect(outside.map(wordRank)).toEqual(outside.map(() => undefined));
  });
});
