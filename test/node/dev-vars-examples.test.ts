import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The registry's refused placeholder (workers/registry/src/keys/caller.ts): a copied example opens nothing. */
const REFUSED_ADMIN_PLACEHOLDER = 'replace-with-a-long-random-string';

/** Every committed example file. */
const examples = execFileSync('git', ['ls-files', '.dev.vars.example', '**/.dev.vars.example'], { encoding: 'utf8' })
  .split('\n')
  .filter(Boolean);

/** NAME=value lines, quotes removed. */
function assignments(text: string): [string, string][] {
  return text
    .split('\n')
    .map((line) => /^\s*([A-Z0-9_]+)\s*=\s*(.*?)\s*$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => [match[1]!, match[2]!.replace(/^"(.*)"$/, '$1')]);
}

describe('example .dev.vars files', () => {
  it('are found beside every Worker', () => {
    expect(examples.length).toBeGreaterThanOrEqual(5);
  });

  it.each(examples)(
    '%s holds no usable secret: seeds, keys and tokens are empty (npm start generates them) or a refused placeholder',
    (path) => {
      for (const [name, value] of assignments(readFileSync(path, 'utf8'))) {
        if (!/KEY|TOKEN|SEED|SECRET/.test(name)) continue;
        expect(value === '' || (name === 'ADMIN_TOKEN' && value === REFUSED_ADMIN_PLACEHOLDER), `${path}: ${name}`).toBe(true);
      }
    },
  );
});
