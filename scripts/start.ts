/**
 * `npm start`: the whole stack, offline, in the spec's start order, until Ctrl-C.
 * `npm start -- --no-client` leaves out the browser client; `npm start -- --inspect` opens each Worker's DevTools
 * inspector (ports 9331–9336), which no run has otherwise (docs/security.md, "Inspectors").
 */
import { parseArgs } from 'node:util';
import { createStack, START_ORDER, type Stack } from './stack/stack.ts';

const { values } = parseArgs({
  options: { 'no-client': { type: 'boolean', default: false }, inspect: { type: 'boolean', default: false } },
});

function printTable(stack: Stack, withClient: boolean): void {
  const rows: [string, string][] = [
    ['client', withClient ? stack.urls.client : '(not started: --no-client)'],
    ['router', `${stack.urls.router}  (agent ${stack.routerAddress})`],
    ['specialist', `${stack.urls.specialist}  (agent ${stack.specialistAddress})`],
    ['registry', stack.urls.registry],
    ['chat', `${stack.urls.chat}/v1`],
    ['hosting', `${stack.urls.hosting}  (also {base_url}/v1/hosting; example agent "Echo (example)")`],
    ['hosting vault', `${stack.urls.vault}  (no API: it seals hosted agents' seeds and secrets over RPC)`],
    ['edgar data', stack.urls.edgar],
    ['admin token', "ADMIN_TOKEN in .dev.vars (creates API keys: the client's API keys screen, POST /v1/keys)"],
    ['inspectors', values.inspect ? 'DevTools on ports 9331–9336 (--inspect)' : 'none (npm start -- --inspect opens them)'],
    ['logs', stack.logDir],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  console.log(
    `\nRendezvous is running:\n${rows.map(([name, value]) => `  ${name.padEnd(width)}  ${value}`).join('\n')}\n\nCtrl-C stops everything.`,
  );
}

const withClient = !values['no-client'];
const stack = await createStack({ onProgress: (line) => console.log(`· ${line}`), inspect: values.inspect });

let stopping = false;
const shutdown = async (code: number) => {
  if (stopping) return;
  stopping = true;
  console.log('\nstopping…');
  await stack.stopAll();
  process.exit(code);
};
// Registered before anything starts, so Ctrl-C during start-up also stops what is already running.
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

try {
  for (const name of START_ORDER) if (name !== 'client' || withClient) await stack.start(name);
} catch (error) {
  if (!stopping) console.error(`\nThe stack did not start: ${(error as Error).message}`);
  await shutdown(1);
}
if (!stopping) printTable(stack, withClient);
