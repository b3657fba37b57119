import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The Workers whose D1 schema the local stack keeps: the registry's (root config) and the hosting Worker's. */
const D1_CONFIGS = ['wrangler.toml', 'workers/hosting/wrangler.toml'];

/** Applies every D1 migration not yet applied to the local state in `persistDir`, as `wrangler d1 migrations apply --local` does. */
export async function applyMigrations(root: string, persistDir: string): Promise<void> {
  for (const config of D1_CONFIGS) {
    await run(
      join(root, 'node_modules/.bin/wrangler'),
      ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persistDir, '--config', config],
      {
        cwd: root,
        env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' },
      },
    );
  }
}
