import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const FOLDER = join(ROOT, 'docs/decisions');
const records = readdirSync(FOLDER).filter((name) => /^\d{4}-[a-z0-9-]+\.md$/.test(name));
const index = readFileSync(join(FOLDER, 'README.md'), 'utf8');

describe('decision records (docs/decisions)', () => {
  it('are numbered once each, and none of the folder is named otherwise', () => {
    const numbers = records.map((name) => name.slice(0, 4));
    expect(new Set(numbers).size).toBe(numbers.length);
    const others = readdirSync(FOLDER).filter((name) => name !== 'README.md' && !records.includes(name));
    expect(others, 'files in docs/decisions that are not NNNN-slug.md').toEqual([]);
  });

  it.each(records)('%s has its number, date, status, context, decision and consequences', (name) => {
    const text = readFileSync(join(FOLDER, name), 'utf8');
    expect(text).toMatch(new RegExp(`^# ${name.slice(0, 4)}\\. \\S`));
    expect(text).toMatch(/^Date: \d{4}-\d{2}-\d{2}$/m);
    expect(text).toMatch(/^(Status|Supersedes): \S/m);
    for (const part of ['## Context', '## Decision', '## Consequences']) expect(text).toContain(`\n${part}\n`);
  });

  it.each(records)('%s says in its Context what called for the decision, in two sentences at least', (name) => {
    const context = /\n## Context\n([\s\S]*?)\n## Decision\n/.exec(readFileSync(join(FOLDER, name), 'utf8'))?.[1] ?? '';
    // Where the record came from (a provenance line) is not why it was taken.
    const situation = context.replace(/^(Formerly docs\/decisions\.md|docs\/decisions\.md held it).*$/gm, '');
    expect(situation, 'the placeholder of the move from docs/decisions.md').not.toMatch(/Taken on top of|written into the decision below/);
    expect(situation.match(/[.:!?)](\s|$)/g)?.length ?? 0, 'sentences in its Context').toBeGreaterThanOrEqual(2);
  });

  it.each(records)('%s is listed in the index', (name) => {
    expect(index, `add a row for ${name} to docs/decisions/README.md`).toContain(`(${name})`);
  });

  it('links only to records that exist', () => {
    for (const name of [...records, 'README.md']) {
      for (const [, target] of readFileSync(join(FOLDER, name), 'utf8').matchAll(/\]\((\d{4}-[^)#]+\.md)/g)) {
        expect(existsSync(join(FOLDER, target!)), `${name} links ${target}`).toBe(true);
      }
    }
  });

  it('every number the code cites (docs/decisions/NNNN) has its record', () => {
    const cited = execFileSync('git', ['grep', '-h', '-o', '-E', 'docs/decisions/[0-9]{4}', '--', ':!docs/decisions'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const numbers = new Set(records.map((name) => name.slice(0, 4)));
    for (const citation of new Set(cited.split('\n').filter(Boolean))) {
      expect(numbers.has(citation.slice(-4)), `${citation} has no record`).toBe(true);
    }
  });
});
