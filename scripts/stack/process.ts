import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ServiceProcess {
  name: string;
  url: string;
  logFile: string;
  child: ChildProcess;
  /** Stops the service and everything it spawned (wrangler starts workerd as a child). */
  stop(): Promise<void>;
}

export interface SpawnOptions {
  name: string;
  url: string;
  command: string;
  args: string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  logFile: string;
}

/** Starts a service in its own process group, output to its log file. */
export function spawnService(options: SpawnOptions): ServiceProcess {
  mkdirSync(dirname(options.logFile), { recursive: true });
  const log = createWriteStream(options.logFile, { flags: 'a' });
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', ...options.env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name: options.name,
    url: options.url,
    logFile: options.logFile,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      signalGroup(child, 'SIGTERM');
      const stopped = await Promise.race([exited.then(() => true), sleep(5000, false)]);
      if (!stopped) signalGroup(child, 'SIGKILL');
      await exited;
      log.end();
    },
  };
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** Polls a URL until it answers (any HTTP status below 500), failing early when the process dies. */
export async function waitForHttp(service: ServiceProcess, path: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (service.child.exitCode !== null) throw new StartError(service, `exited with code ${service.child.exitCode}`);
    try {
      const response = await fetch(new URL(path, service.url), { signal: AbortSignal.timeout(2000) });
      if (response.status < 500) return;
    } catch {
      // Not listening yet.
    }
    await sleep(250);
  }
  throw new StartError(service, `did not answer ${path} within ${timeoutMs / 1000} s`);
}

export class StartError extends Error {
  constructor(service: ServiceProcess, reason: string) {
    super(`${service.name} ${reason}. Last lines of ${service.logFile}:\n${tail(service.logFile, 30)}`);
  }
}

export function tail(file: string, lines: number): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Fails when something already listens on the port (wrangler would otherwise quietly pick another one). */
export async function assertPortFree(name: string, port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = createServer()
      .once('error', () => reject(new Error(`port ${port} for ${name} is in use; stop what runs there or choose other ports`)))
      .once('listening', () => probe.close(() => resolve()))
      .listen(port, '127.0.0.1');
  });
}
