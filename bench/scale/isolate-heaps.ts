import { fetch } from 'miniflare';

/**
 * The V8 heap of each isolate in the workerd process, read through workerd's inspector (`--inspector-addr`,
 * bench/miniflare-stack.ts `inspectorPort`): what the heap holds now, garbage included, and what is still
 * reachable after a full collection. A deployed Worker's 128 MB limit is on its isolate's heap, while the
 * process's resident memory also counts Miniflare's own isolates (the local D1 and queue simulators, which a
 * deployed registry does not run) and workerd's native memory (SQLite, buffers, the allocator's free pages).
 */
export interface IsolateHeap {
  /** workerd's name for the isolate's worker: `core:user:<worker name>` for ours, others are Miniflare's. */
  name: string;
  /** MiB in use now, garbage not yet collected included. */
  usedMiB: number;
  /** MiB the heap has taken from the system now. */
  committedMiB: number;
  /** MiB still in use after a full collection: what the isolate keeps (null: not collected). */
  liveMiB: number | null;
}

const MIB = 2 ** 20;
const CALL_TIMEOUT_MS = 60_000;

interface Target {
  id: string;
}

/** One inspector session: `call` sends a method and waits for its answer; events (snapshot chunks) are dropped. */
async function session(port: number, target: string) {
  const response = await fetch(`http://127.0.0.1:${port}/${target}`, { headers: { upgrade: 'websocket' } });
  const socket = response.webSocket;
  if (!socket) throw new Error(`workerd's inspector refused a session with ${target} (${response.status})`);
  socket.accept();
  const pending = new Map<number, (message: { result?: unknown; error?: { message: string } }) => void>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(typeof event.data === 'string' ? event.data : new TextDecoder().decode(event.data));
    pending.get(message.id)?.(message);
  });
  let next = 0;
  return {
    call<T>(method: string, params: object = {}): Promise<T> {
      const id = ++next;
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${method} on ${target}: no answer in ${CALL_TIMEOUT_MS} ms`)), CALL_TIMEOUT_MS);
        pending.set(id, (message) => {
          clearTimeout(timer);
          pending.delete(id);
          if (message.error) reject(new Error(`${method} on ${target}: ${message.error.message}`));
          else resolve(message.result as T);
        });
        socket.send(JSON.stringify({ id, method, params }));
      });
    },
    close: () => socket.close(),
  };
}

interface HeapUsage {
  usedSize: number;
  totalSize: number;
}

/**
 * Every isolate's heap now and, with `collect`, after a full collection. workerd neither answers nor acts on
 * `HeapProfiler.collectGarbage`; a heap snapshot collects fully before it is taken, so one is taken and its
 * chunks dropped. Writing it costs workerd a few hundred MiB of native memory for a while: read the process's
 * memory before collecting.
 */
export async function isolateHeaps(inspectorPort: number, collect: boolean): Promise<IsolateHeap[]> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as Target[];
  const heaps: IsolateHeap[] = [];
  for (const { id } of targets) {
    const inspector = await session(inspectorPort, id);
    try {
      const now = await inspector.call<HeapUsage>('Runtime.getHeapUsage');
      let liveMiB: number | null = null;
      if (collect) {
        await inspector.call('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
        liveMiB = (await inspector.call<HeapUsage>('Runtime.getHeapUsage')).usedSize / MIB;
      }
      heaps.push({ name: id, usedMiB: now.usedSize / MIB, committedMiB: now.totalSize / MIB, liveMiB });
    } finally {
      inspector.close();
    }
  }
  return heaps;
}

/** The heaps as printed lines: our Workers' isolates each, then Miniflare's local D1 and its other services summed. */
export function printHeaps(heaps: IsolateHeap[]): string[] {
  const line = (label: string, group: IsolateHeap[]) => {
    const sum = (pick: (heap: IsolateHeap) => number | null) => {
      const values = group.map(pick);
      return values.includes(null) ? '-' : (values as number[]).reduce((total, value) => total + value, 0).toFixed(1);
    };
    return `  ${label.padEnd(50)} ${sum((h) => h.usedMiB).padStart(7)} ${sum((h) => h.committedMiB).padStart(9)} ${sum((h) => h.liveMiB).padStart(7)}`;
  };
  const ours = heaps.filter((heap) => heap.name.startsWith('core:user:'));
  const d1 = heaps.filter((heap) => heap.name.startsWith('d1:'));
  const rest = heaps.filter((heap) => !ours.includes(heap) && !d1.includes(heap));
  return [
    `  ${'V8 heap of each isolate (MiB)'.padEnd(50)} ${'used'.padStart(7)} ${'committed'.padStart(9)} ${'live'.padStart(7)}   (live: after a full collection)`,
    ...ours.map((heap) => line(heap.name.slice('core:user:'.length), [heap])),
    line("Miniflare's local D1 (not in a deploy)", d1),
    line(`Miniflare's ${rest.length} other services (queues, cache, entry)`, rest),
  ];
}
