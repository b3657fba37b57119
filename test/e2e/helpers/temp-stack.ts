import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
