import { join } from 'node:path';
import { spawnService, type ServiceProcess } from './process.ts';

/** The browser client on Vite's dev server, built against the given router URL. */
export function viteDev(options: { root: string; port: number; routerUrl: string; logDir: string }): ServiceProcess {
  return spawnService({
    name: 'client',
    url: `http://localhost:${options.port}`,
    command: join(options.root, 'node_modules/.bin/vite'),
    args: ['--config', 'pages/vite.config.ts', '--port', String(options.port), '--strictPort'],
    cwd: options.root,
    env: { VITE_ROUTER_URL: options.routerUrl },
    logFile: join(options.logDir, 'client.log'),
  });
}
