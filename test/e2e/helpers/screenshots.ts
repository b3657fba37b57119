import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROOT } from '../../../scripts/stack/stack.ts';

/**
 * Where a browser test writes a screenshot: test-results/screenshots (ignored by git), or the README's
 * docs/screenshots when UPDATE_SCREENSHOTS=1, so a test run leaves the working tree as it was.
 */
export function screenshotPath(name: string): string {
  const dir = process.env.UPDATE_SCREENSHOTS === '1' ? resolve(ROOT, 'docs/screenshots') : resolve(ROOT, 'test-results/screenshots');
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}
