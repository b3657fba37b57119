import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServiceName } from '../../../scripts/stack/ports.ts';
import { tail } from '../../../scripts/stack/process.ts';
import { createStack, startStack, type Stack, type StackOptions } from '../../../scripts/stack/stack.ts';

export interface TempStack {
  stack: Stack;
  dir: string;
  /** Stops every service and removes the temp state. */
  dispose(): Promise<void>;
}

/** Options that keep a test's state (D1, Durable Objects, secrets, logs) in a temp dir of its own. */
function tempOptions(dir: string, options: StackOptions): StackOptions {
  return { persistDir: join(dir, 'state'), secretsDir: join(dir, 'secrets'), logDir: join(dir, 'logs'), ...options };
}

function wrap(stack: Stack, dir: string): TempStack {
  return {
    stack,
    dir,
    async dispose() {
      await stack.stopAll();
      if (!process.env.KEEP_E2E_STATE) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The whole stack in the spec's order, on the standard ports, with fresh state. */
export async function startTempStack(options: StackOptions = {}): Promise<TempStack> {
  const dir = mkdtempSync(join(tmpdir(), 'rendezvous-e2e-'));
  return wrap(await startStack(tempOptions(dir, options)), dir);
}

/** A prepared stack with nothing started, for tests that choose the order. */
export async function createTempStack(options: StackOptions = {}): Promise<TempStack> {
  const dir = mkdtempSync(join(tmpdir(), 'rendezvous-e2e-'));
  return wrap(await createStack(tempOptions(dir, options)), dir);
}

/** How long one check of a service may take before it counts as hanging. */
const CHECK_TIMEOUT_MS = 10_000;

/**
 * GET `path` of a running service. A request left unanswered is aborted after 10 s and tried once more on a
 * new connection; a second hang fails with the service's log, so a failure names the service and shows why.
 */
export async function getFromService(temp: TempStack, name: ServiceName, path: string): Promise<Response> {
  const url = `${temp.stack.urls[name]}${path}`;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    } catch (error) {
      const log = tail(join(temp.stack.logDir, `${name}.log`), 40);
      const reason = `GET ${url} (${name}) failed on try ${attempt}: ${(error as Error).message}. Last lines of its log:\n${log}`;
      if (attempt === 2) throw new Error(reason);
      console.warn(reason);
    }
  }
}
