/**
 * One Worker in local mode like `wrangler dev`, but with no DevTools inspector: `wrangler dev` always opens one
 * (on --inspector-port, or 9229), and an inspector evaluates code inside the Worker's isolate, its secrets in
 * reach (issue 22). The stack starts Workers so unless asked (`npm start -- --inspect`). Arguments as wrangler's:
 * --config, --port, --persist-to, --env-file, and --var NAME:VALUE (repeated); and --revive PATH: restart the
 * Workers runtime when PATH stops answering (see below).
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
    revive: { type: 'string' },
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

const startWorker = async () => {
  const started = await unstable_startWorker({
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
  await started.ready;
  console.log(`Ready on ${(await started.url).href} (no inspector)`);
  return started;
};

let worker = await startWorker();

/**
 * Local workerd sets no memory limit on any isolate, and a V8 heap that runs out aborts the whole runtime
 * (signal 6, "Reached heap limit"): one hosted agent's JavaScript heap would take hosting down for every tenant
 * until someone restarted it (issue 22; docs/decisions/0107). With --revive, this process checks PATH every second
 * and starts the runtime again (same state on disk) after three failures in a row. Deployed, Cloudflare stops the
 * one isolate instead.
 */
const REVIVE_AFTER_FAILURES = 3;
if (values.revive) {
  const path = values.revive;
  let failures = 0;
  let reviving = false;
  setInterval(() => {
    if (reviving) return;
    void fetch(new URL(path, `http://127.0.0.1:${values.port}`), { signal: AbortSignal.timeout(5_000) })
      .then(async (response) => {
        await response.body?.cancel();
        return response.status < 500;
      })
      .catch(() => false)
      .then(async (answered) => {
        failures = answered ? 0 : failures + 1;
        if (failures < REVIVE_AFTER_FAILURES || reviving) return;
        reviving = true;
        console.error(`${path} did not answer ${failures} times in a row: the Workers runtime is restarted (issue 22)`);
        await worker.dispose().catch((error: unknown) => console.error('disposing the stopped runtime failed:', error));
        worker = await startWorker();
        failures = 0;
        reviving = false;
      });
  }, 1_000).unref();
}

const stop = async () => {
  await worker.dispose();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
