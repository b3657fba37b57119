import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

/** The scripts that drive uAgents' own code (vendored under test/interop/vendor). */
const UAGENTS_SCRIPTS = resolve(import.meta.dirname, '../../interop/mailbox');

/** Debian's python3 with what uAgents' mailbox path imports (scripts/test.sh installs the packages); null without it. */
function pythonForUagents(): string | null {
  const check = 'import aiohttp, ecdsa, httpx, pydantic, requests, uvicorn, sys; sys.exit(0 if pydantic.VERSION.startswith("1.") else 1)';
  const candidates = [process.env.PYTHON, '/usr/bin/python3', 'python3'].filter((candidate): candidate is string => !!candidate);
  return candidates.find((python) => spawnSync(python, ['-c', check], { stdio: 'ignore' }).status === 0) ?? null;
}

export const uagentsPython = pythonForUagents();
const pythonEnv = { ...process.env, PYTHONDONTWRITEBYTECODE: '1', NO_COLOR: '1' };

/** One script run to its end. */
export function runUagentsScript(script: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(uagentsPython!, [join(UAGENTS_SCRIPTS, script), ...args], { env: pythonEnv, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A script left running (an agent), whose reports are the JSON lines of its stdout. */
export interface RunningAgent {
  child: ChildProcessWithoutNullStreams;
  /** Its report number `index` (from 0), waited for up to 60 s; fails with its output when it ends or stalls. */
  next(index: number): Promise<unknown>;
  /** Everything it wrote that is not a report (uAgents' own logger writes to stdout too). */
  output(): string;
}

export function spawnUagentsAgent(script: string, args: string[]): RunningAgent {
  const child = spawn(uagentsPython!, [join(UAGENTS_SCRIPTS, script), ...args], { env: pythonEnv });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const events: unknown[] = [];
  const waiting: (() => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith('{')) events.push(JSON.parse(line));
    else output += `${line}\n`;
    for (const wake of waiting.splice(0)) wake();
  });
  return {
    child,
    output: () => output,
    async next(index) {
      const deadline = Date.now() + 60_000;
      while (events.length <= index) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${script} ended or stalled; its output:\n${output}`);
        await new Promise<void>((wake) => {
          waiting.push(wake);
          setTimeout(wake, 500);
        });
      }
      return events[index];
    },
  };
}
