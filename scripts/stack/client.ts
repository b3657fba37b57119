import { join } from 'node:path';
import { spawnService, type ServiceProcess } from './process.ts';

/** The browser client on Vite's dev server, built against the stack's router, registry and chat URLs. */
export function viteDev(options: {
  root: string;
  port: number;
  urls: { router: string; registry: string; chat: string };
  logDir: string;
}): ServiceProcess {
  return spawnService({
    name: 'client',
    url: `http://localhost:${options.port}`,
    command: join(options.root, 'node_modules/.bin/vite'),
    args: ['--config', 'pages/vite.config.ts', '--port', String(options.port), '--strictPort'],
    cwd: options.root,
    env: { VITE_ROUTER_URL: options.urls.router, VITE_REGISTRY_URL: options.urls.registry, VITE_CHAT_URL: options.urls.chat },
    logFile: join(options.logDir, 'client.log'),
  });
}
