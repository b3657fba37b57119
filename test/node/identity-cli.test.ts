import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { identityVectors } from './helpers/vectors.ts';

/** `npm run identity`: the user's way to see the address a seed gives. Runs the real script. */
const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const vector = identityVectors().find((candidate) => candidate.index > 0)!;

async function identity(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(resolve(ROOT, 'node_modules/.bin/tsx'), ['scripts/identity.ts', ...args], { cwd: ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npm run identity', () => {
  it('prints the address and public key of a seed and index (through npm, as users call it)', async () => {
    const { stdout } = await run('npm', ['run', '--silent', 'identity', '--', '--seed', vector.seed, '--index', String(vector.index)], {
      cwd: ROOT,
    });
    expect(stdout).toContain(`address     ${vector.address}`);
    expect(stdout).toContain(`public key  ${vector.public_key_hex}`);
    expect(stdout).not.toContain(vector.private_key_hex);
  });

  it('--json prints them as JSON', async () => {
    const result = await identity(['--seed', vector.seed, '--index', String(vector.index), '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ address: vector.address, public_key: vector.public_key_hex, index: vector.index });
  });

  it('the index defaults to 0', async () => {
    const zero = identityVectors().find((candidate) => candidate.index === 0)!;
    const result = await identity(['--seed', zero.seed, '--json']);
    expect(JSON.parse(result.stdout)).toMatchObject({ address: zero.address, index: 0 });
  });

  it.each([
    ['no seed', ['--index', '1'], /--seed is required/],
    ['an empty seed', ['--seed', ''], /--seed is required/],
    ['index 256', ['--seed', 'x', '--index', '256'], /--index must be from 0 to 255, got 256/],
    ['index -1', ['--seed', 'x', '--index=-1'], /--index must be a whole number from 0 to 255, got "-1"/],
    ['index 1.5', ['--seed', 'x', '--index', '1.5'], /--index must be a whole number from 0 to 255, got "1.5"/],
    ['index abc', ['--seed', 'x', '--index', 'abc'], /--index must be a whole number from 0 to 255, got "abc"/],
    ['an unknown option', ['--seed', 'x', '--private'], /Unknown option '--private'/],
  ])('%s: a clear message on stderr, the usage, exit code 2', async (_, args, message) => {
    const result = await identity(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain('usage: npm run identity -- --seed <seed>');
  });
});
