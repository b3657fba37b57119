import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { readdirSync, readFileSync } from 'node:fs';

/** Kernel clock ticks per second, the unit of utime and stime in /proc/<pid>/stat. */
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** One process's fields of /proc/<pid>/stat: its name, process group and CPU time (user + system) in ms. */
function readStat(pid: string): { name: string; group: number; cpuMs: number } | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The name is in parentheses and may hold spaces; the fields after it are counted from the closing one.
  const close = stat.lastIndexOf(')');
  const fields = stat.slice(close + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return { name: stat.slice(stat.indexOf('(') + 1, close), group: Number(fields[2]), cpuMs: (ticks * 1000) / TICKS_PER_SECOND };
}

/** CPU ms so far of each service (its whole process group), split by process name (workerd, node, …). */
export type CpuSnapshot = Map<string, Map<string, number>>;

/**
 * Load-independent figures: the CPU time each service spent, whatever else the machine runs. Each service
 * runs in its own process group (scripts/stack/process.ts), so wrangler's node and its workerd are summed.
 */
export function cpuSnapshot(groups: ReadonlyMap<string, number>, processes: ReadonlyMap<string, number> = new Map()): CpuSnapshot {
  const serviceOf = new Map([...groups].map(([service, group]) => [group, service]));
  const snapshot: CpuSnapshot = new Map([...groups.keys()].map((service) => [service, new Map()]));
  // Services that are one process of a group shared with others (the Workers' runtimes Miniflare starts), by pid.
  for (const [service, pid] of processes) {
    const stat = readStat(String(pid));
    snapshot.set(service, new Map(stat ? [[stat.name, stat.cpuMs]] : []));
  }
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = readStat(pid);
    const service = stat && serviceOf.get(stat.group);
    if (!stat || !service) continue;
    const byName = snapshot.get(service)!;
    byName.set(stat.name, (byName.get(stat.name) ?? 0) + stat.cpuMs);
  }
  return snapshot;
}

/** CPU ms spent between two snapshots, per service and process name. */
export function cpuSpent(before: CpuSnapshot, after: CpuSnapshot): Map<string, Map<string, number>> {
  return new Map(
    [...after].map(([service, byName]) => [
      service,
      new Map([...byName].map(([name, ms]) => [name, ms - (before.get(service)?.get(name) ?? 0)])),
    ]),
  );
}

/** CPU ms per `unit` (an answer, a turn) of each service (its processes summed, the busiest named): the load-independent figure. */
export function reportCpu(cpu: Record<string, Record<string, number>>, units: number, unit: string): void {
  const entries = Object.entries(cpu);
  if (!entries.length || !units) return;
  const total = entries.reduce((sum, [, byName]) => sum + Object.values(byName).reduce((a, b) => a + b, 0), 0);
  // workerd runs the Workers; wrangler's node prints a log line per request and esbuild serves its builds: dev tooling only.
  const workerd = entries.reduce((sum, [, byName]) => sum + (byName.workerd ?? 0), 0);
  const perUnit = (ms: number) => (ms / units).toFixed(1);
  console.log(
    `  CPU per ${unit} (user + system): ${perUnit(total)} ms in all, ${perUnit(workerd)} ms in the Workers (workerd); ` +
      `at that cost this machine's ${availableParallelism()} cores, idle, serve at most ${((availableParallelism() * 1000 * units) / total).toFixed(0)} ${unit}s/s`,
  );
  for (const [service, byName] of entries) {
    const ms = Object.values(byName).reduce((a, b) => a + b, 0);
    const parts = Object.entries(byName)
      .filter(([, part]) => part > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([name, part]) => `${name} ${(part / units).toFixed(1)}`)
      .join(', ');
    console.log(
      `    ${service.padEnd(14)} ${(ms / units).toFixed(1).padStart(7)} ms  ${((ms / total) * 100).toFixed(0).padStart(3)} %  (${parts})`,
    );
  }
}
