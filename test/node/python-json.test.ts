import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { pythonJsonDumps } from '../../lib/envelope/python-json.ts';

/** What Python's own json.dumps writes for `value` with these keyword arguments. */
function pythonDumps(value: unknown, kwargs: string): string {
  const script = `import json, sys\nsys.stdout.write(json.dumps(json.loads(sys.stdin.read()), ${kwargs}))`;
  return execFileSync('python3', ['-c', script], { input: JSON.stringify(value), encoding: 'utf8' });
}

const SAMPLE = {
  zeta: 'caf\u00e9 \u{1f600} \u007f \u0001 tab\t "quoted" \\ back',
  alpha: [1, -2, 0, true, false, null, { b: 'é', a: [] }],
  Upper: { nested: { z: 1, a: 'ü' } },
  '\u00fcber': 'key not ASCII',
  empty: {},
};

describe('pythonJsonDumps: the one Python-JSON encoder', () => {
  it('writes what json.dumps writes, byte for byte, in each form the platform signs or sends', () => {
    expect(pythonJsonDumps(SAMPLE)).toBe(pythonDumps(SAMPLE, 'separators=(",", ":")'));
    expect(pythonJsonDumps(SAMPLE, { sortKeys: true })).toBe(pythonDumps(SAMPLE, 'sort_keys=True, separators=(",", ":")'));
    expect(pythonJsonDumps(SAMPLE, { sortKeys: true, compact: false })).toBe(pythonDumps(SAMPLE, 'sort_keys=True'));
  });

  it('leaves out undefined members and refuses a value that is no JSON', () => {
    expect(pythonJsonDumps({ b: 1, a: undefined }, { sortKeys: true })).toBe('{"b":1}');
    expect(() => pythonJsonDumps(undefined)).toThrow(TypeError);
  });
});
