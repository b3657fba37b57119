import { join } from 'node:path';
import { spawnService, type ServiceProcess } from './process.ts';

export interface WranglerDevOptions {
  name: string;
  root: string;
  /** Wrangler config, relative to the repository root. */
  config: string;
  port: number;
  inspectorPort: number;
  persistDir: string;
  /** Secrets file given to wrangler with --env-file (in place of the Worker's .dev.vars). */
  envFile: string;
  /** Plain variables that override the config's [vars]. */
  vars?: Record<string, string>;
  logDir: string;
}

/**
 * One `wrangler dev` process, local mode, on its own port and devtools port, persisting to the shared dir.
 * Service bindings between the stack's Workers resolve through a dev registry beside the state dir, not the
 * machine-wide one, so another `wrangler dev` of a Worker with the same name cannot capture them.
 */
export function wranglerDev(options: WranglerDevOptions): ServiceProcess {
  const args = [
    'dev',
    '--config',
    options.config,
    '--port',
    String(options.port),
    '--inspector-port',
    String(options.inspectorPort),
    '--persist-to',
    options.persistDir,
    '--env-file',
    options.envFile,
    '--local',
    '--show-interactive-dev-session=false',
    ...Object.entries(options.vars ?? {}).flatMap(([key, value]) => ['--var', `${key}:${value}`]),
  ];
  return spawnService({
    name: options.name,
    url: `http://localhost:${options.port}`,
    command: join(options.root, 'node_modules/.bin/wrangler'),
    args,
    cwd: options.root,
    env: { WRANGLER_REGISTRY_PATH: join(options.persistDir, '..', 'dev-registry') },
    logFile: join(options.logDir, `${options.name}.log`),
  });
}
