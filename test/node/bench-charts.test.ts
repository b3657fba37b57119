import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * bench/README.md shows the charts the benches write (bench/svg-chart.ts): every chart it shows is committed, and
 * was written by a bench (it states the load it was measured under); every bench that writes a chart has it shown.
 */
const BENCH = resolve(import.meta.dirname, '../../bench');
const readme = readFileSync(join(BENCH, 'README.md'), 'utf8');
const shown = [...readme.matchAll(/!\[[^\]]*\]\((charts\/[\w.-]+\.svg)\)/g)].map((match) => match[1]!);

/** Each bench's chart path as a pattern (a `${…}` in it stands for any name part, as e2e's runtime). */
const written = readdirSync(BENCH)
  .filter((name) => name.endsWith('.ts'))
  .flatMap((name) =>
    [...readFileSync(join(BENCH, name), 'utf8').matchAll(/['`](charts\/[^'`]+\.svg)['`]/g)].map((match) => ({
      bench: name,
      pattern: new RegExp(`^${match[1]!.replace(/\$\{[^}]+\}/g, '[\\w-]+').replace(/\./g, '\\.')}$`),
    })),
  );

describe('bench charts (bench/README.md)', () => {
  it('the benches write charts, and the README shows some', () => {
    expect(written.map((chart) => chart.bench).sort()).toEqual(['chat.ts', 'e2e.ts', 'relevance.ts', 'search.ts']);
    expect(shown.length).toBeGreaterThan(0);
  });

  it.each(written)('$bench: its chart is shown', ({ pattern }) => {
    expect(
      shown.some((chart) => pattern.test(chart)),
      `bench/README.md shows no chart matching ${pattern}`,
    ).toBe(true);
  });

  it.each(shown)('%s is committed, written by a bench (it states its load), not drawn by hand', (chart) => {
    const svg = readFileSync(join(BENCH, chart), 'utf8');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).toMatch(/fill="#555555">[^<]*\d{4}-\d\d-\d\d, load \d+\.\d–\d+\.\d on \d+ cores</);
    expect(
      written.some(({ pattern }) => pattern.test(chart)),
      `no bench writes ${chart}`,
    ).toBe(true);
  });
});
