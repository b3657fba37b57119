import { join } from 'node:path';
import { spawnService, type ServiceProcess } from './process.ts';

export interface WranglerDevOptions {
  name: string;
  root: string;
  /** Wrangler config, relative to the repository root. */
  config: string;
  port: number;
  /** DevTools port; without one the Worker runs with no inspector at all (scripts/stack/worker-dev.ts). */
  inspectorPort?: number;
  persistDir: string;
  /** Secrets file given to wrangler with --env-file (in place of the Worker's .dev.vars). */
  envFile: string;
  /** Plain variables that override the config's [vars]. */
  vars?: Record<string, string>;
  /** A path the runtime answers while it is alive: it is restarted when that stops (worker-dev.ts --revive). */
  revivePath?: string;
  logDir: string;
}

/**
 * One `wrangler dev` process, local mode, on its own port (and devtools port, when given), persisting to the shared dir.
 * Service bindings between the stack's Workers resolve through a dev registry beside the state dir, not the
 * machine-wide one, so another `wrangler dev` of a Worker with the same name cannot capture them.
 */
export function wranglerDev(options: WranglerDevOptions): ServiceProcess {
  const common = [
    '--config',
    options.config,
    '--port',
    String(options.port),
    '--persist-to',
    options.persistDir,
    '--env-file',
    options.envFile,
    ...Object.entries(options.vars ?? {}).flatMap(([key, value]) => ['--var', `${key}:${value}`]),
  ];
  const inspected = options.inspectorPort !== undefined;
  return spawnService({
    name: options.name,
    url: `http://localhost:${options.port}`,
    command: join(options.root, inspected ? 'node_modules/.bin/wrangler' : 'node_modules/.bin/tsx'),
    args: inspected
      ? ['dev', ...common, '--inspector-port', String(options.inspectorPort), '--local', '--show-interactive-dev-session=false']
      : [join(options.root, 'scripts/stack/worker-dev.ts'), ...common, ...(options.revivePath ? ['--revive', options.revivePath] : [])],
    cwd: options.root,
    env: { WRANGLER_REGISTRY_PATH: join(options.persistDir, '..', 'dev-registry') },
    logFile: join(options.logDir, `${options.name}.log`),
  });
}
