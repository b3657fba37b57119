import { type IsolateHeap, isolateHeaps, printHeaps } from './isolate-heaps.ts';
import { type WorkerdMemory, workerdMemory } from './workerd-memory.ts';

/**
 * workerd's memory at one point of the bench, split as docs/decisions/0224 explains: the process's resident
 * memory (now and its peak so far) beside each isolate's V8 heap. The process figure follows the garbage V8 has
 * not collected yet and workerd's native memory; the registry isolate's live heap is what it keeps. The
 * process is read first: collecting (a heap snapshot) raises it for a while.
 */
export interface MemoryReading {
  resident: WorkerdMemory | null;
  heaps: IsolateHeap[];
}

export async function readMemory(inspectorPort: number, collect: boolean): Promise<MemoryReading> {
  const resident = workerdMemory();
  return { resident, heaps: await isolateHeaps(inspectorPort, collect) };
}

export function printMemory(phase: string, { resident, heaps }: MemoryReading): string[] {
  const mib = (value: number | undefined) => (value === undefined ? 'not found' : `${value.toFixed(0)} MiB`);
  return [`workerd memory ${phase}: resident ${mib(resident?.nowMiB)}, peak so far ${mib(resident?.peakMiB)}`, ...printHeaps(heaps)];
}
