import PYODIDE_WASM from '../../dist/pyodide/pyodide.asm.wasm.bin';
import STORED_SNAPSHOT from '../../dist/pyodide/python-snapshot.bin';
import PYTHON_STDLIB from '../../dist/pyodide/python_stdlib.zip.bin';
import PYTHON_GUEST from '../../dist/python-guest.txt';
import PYTHON_SITE from '../../dist/python-site.txt';
import type { SourceFile } from '../code/files.ts';
import { restoredSnapshot } from '../python/memory-snapshot.ts';
import { PYODIDE_TRAMPOLINES } from '../python/pyodide-recorded.ts';

const bytesOf = (hex: string) => Uint8Array.from(hex.match(/../g)!, (pair) => Number.parseInt(pair, 16)).buffer;

/** Each recorded trampoline as a wasm module of the guest (the loader compiles it, as a Worker's own module). */
const TRAMPOLINE_MODULES = Object.fromEntries(
  PYODIDE_TRAMPOLINES.map((hex, index) => [`trampoline-${index}.wasm`, { wasm: bytesOf(hex) }]),
);
const TRAMPOLINE_TABLE = `${PYODIDE_TRAMPOLINES.map((_, index) => `import t${index} from 'trampoline-${index}.wasm';`).join('\n')}
export default [${PYODIDE_TRAMPOLINES.map((hex, index) => `[${JSON.stringify(hex)}, t${index}]`).join(', ')}];`;

/**
 * Restored once per hosting isolate, when its first Python guest starts: every guest gets the same bytes, over
 * RPC (HOST.pythonSnapshot), so that a guest frees them once Pyodide has restored its memory.
 */
let snapshot: ArrayBuffer | undefined;
export const memorySnapshot = () => {
  snapshot ??= restoredSnapshot(new Uint8Array(STORED_SNAPSHOT), new Uint8Array(PYODIDE_WASM)).buffer as ArrayBuffer;
  return snapshot;
};

/**
 * A Python agent's Dynamic Worker modules: Pyodide (its wasm compiled by the loader, never at run time in the
 * guest), the platform's `uagents` packages, the guest entrypoint (the same GuestContract as TypeScript guests),
 * and the uploaded files. Pyodide runs only here, in the guest's isolate: Python can reach its isolate's globals.
 */
export function pythonGuestModules(
  files: SourceFile[],
  main: string,
  name: string,
  mainModule: string,
): Record<string, WorkerLoaderModule> {
  const sources = Object.fromEntries(files.map((file) => [file.name, file.value]));
  return {
    [mainModule]: {
      js: `import { pythonEntrypoint } from 'rendezvous-python.js';
import files from 'agent-files.json';
export const Agent = pythonEntrypoint(files, ${JSON.stringify(main)}, ${JSON.stringify(name)});
export default { fetch: () => new Response('a hosted agent receives messages at the platform\\'s /v1/hosting/submit', { status: 404 }) };`,
    },
    'rendezvous-python.js': { js: PYTHON_GUEST },
    'agent-files.json': { json: sources },
    'python-site.json': { json: JSON.parse(PYTHON_SITE) },
    'pyodide.asm.wasm': { wasm: PYODIDE_WASM },
    'python_stdlib.zip': { data: PYTHON_STDLIB },
    'pyodide-trampolines.js': { js: TRAMPOLINE_TABLE },
    ...TRAMPOLINE_MODULES,
  };
}
