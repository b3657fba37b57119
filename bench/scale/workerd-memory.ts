import { readdirSync, readFileSync } from 'node:fs';

/**
 * Resident memory of the workerd processes this bench started: the Workers runtime Miniflare runs, the isolates
 * and the local D1 (SQLite and its page cache) together. Found as descendants of this process.
 */
function children(): Map<number, number[]> {
  const byParent = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      byParent.set(parent, [...(byParent.get(parent) ?? []), Number(entry)]);
    } catch {
      // The process ended while the table was read.
    }
  }
  return byParent;
}

/** Resident memory of the workerd processes: the peak so far (VmHWM) and now (VmRSS), MiB, the largest process's. */
export interface WorkerdMemory {
  peakMiB: number;
  nowMiB: number;
}

export function workerdMemory(): WorkerdMemory | null {
  const byParent = children();
  const pending = [...(byParent.get(process.pid) ?? [])];
  let found: WorkerdMemory | null = null;
  while (pending.length) {
    const pid = pending.pop()!;
    pending.push(...(byParent.get(pid) ?? []));
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      if (!/^Name:\s*workerd/m.test(status)) continue;
      const peakMiB = Number(/^VmHWM:\s*(\d+)/m.exec(status)?.[1] ?? 0) / 1024;
      const nowMiB = Number(/^VmRSS:\s*(\d+)/m.exec(status)?.[1] ?? 0) / 1024;
      if (!found || peakMiB > found.peakMiB) found = { peakMiB, nowMiB };
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}
