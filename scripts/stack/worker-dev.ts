/**
 * One Worker in local mode like `wrangler dev`, but with no DevTools inspector: `wrangler dev` always opens one
 * (on --inspector-port, or 9229), and an inspector evaluates code inside the Worker's isolate, its secrets in
 * reach (issue 22). The stack starts Workers so unless asked (`npm start -- --inspect`). Arguments as wrangler's:
 * --config, --port, --persist-to, --env-file, and --var NAME:VALUE (repeated).
 */
import { parseArgs } from 'node:util';
import { unstable_startWorker } from 'wrangler';

const { values } = parseArgs({
  options: {
    config: { type: 'string' },
    port: { type: 'string' },
    'persist-to': { type: 'string' },
    'env-file': { type: 'string' },
    var: { type: 'string', multiple: true, default: [] },
  },
});

const vars = Object.fromEntries(
  values.var.map((pair) => {
    const colon = pair.indexOf(':');
    return [pair.slice(0, colon), { type: 'plain_text' as const, value: pair.slice(colon + 1) }];
  }),
);

// As `wrangler dev` does: a request that fails inside wrangler's proxy (a client that hangs up mid-body) is
// logged, not fatal to the process that serves every other request.
process.on('unhandledRejection', (error) => console.error('unhandled rejection in the dev server:', error));
process.on('uncaughtException', (error) => console.error('uncaught exception in the dev server:', error));

const worker = await unstable_startWorker({
  config: values.config,
  envFiles: values['env-file'] ? [values['env-file']] : undefined,
  bindings: vars,
  dev: {
    remote: false,
    inspector: false,
    watch: false,
    server: { port: Number(values.port) },
    persist: values['persist-to'],
    // The stack's own dev registry (scripts/stack/wrangler-dev.ts sets it), as `wrangler dev` reads it.
    registry: process.env.WRANGLER_REGISTRY_PATH,
  },
});
await worker.ready;
console.log(`Ready on ${(await worker.url).href} (no inspector)`);

const stop = async () => {
  await worker.dispose();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
