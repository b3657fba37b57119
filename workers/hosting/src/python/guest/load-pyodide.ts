import './shims.ts';
import 'pyodide/pyodide.asm.js';
import { loadPyodide, type PyodideInterface } from 'pyodide';
import ASM_WASM from 'pyodide.asm.wasm';
import STDLIB from 'python_stdlib.zip';
import TRAMPOLINES from 'pyodide-trampolines.js';
import PYTHON_SITE from 'python-site.json';
import { GUEST_MEMORY_BYTES } from '../../guest/protocol.ts';
import { PYODIDE_LOCK_INFO } from '../pyodide-recorded.ts';
import { INDEX_URL } from './shims.ts';

const SITE_PACKAGES = '/lib/python3.13/site-packages';

const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

/**
 * Workers may not compile WebAssembly at run time; the modules Emscripten builds while Pyodide starts were
 * recorded (record-pyodide.mjs) and come precompiled, looked up by their bytes. Any other bytes reach the
 * runtime's own constructor, which refuses them ("Wasm code generation disallowed by embedder").
 */
function usePrecompiledModules(): void {
  const precompiled = new Map(TRAMPOLINES);
  const NativeModule = WebAssembly.Module;
  function PrecompiledModule(bytes: BufferSource): WebAssembly.Module {
    const view = ArrayBuffer.isView(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : new Uint8Array(bytes);
    return precompiled.get(hex(view)) ?? (Reflect.construct(NativeModule, [bytes]) as WebAssembly.Module);
  }
  PrecompiledModule.prototype = NativeModule.prototype;
  Object.setPrototypeOf(PrecompiledModule, NativeModule);
  WebAssembly.Module = PrecompiledModule as unknown as typeof WebAssembly.Module;
  // Pyodide streams its main module from a fetch: it is the bundled, compiled one.
  Object.assign(WebAssembly, {
    instantiateStreaming: async (_source: unknown, imports: WebAssembly.Imports) => ({
      module: ASM_WASM,
      instance: await WebAssembly.instantiate(ASM_WASM, imports),
    }),
  });
}

const WASM_PAGE_BYTES = 65_536;

/**
 * Python's heap is Pyodide's WebAssembly memory, which Emscripten grows from JavaScript as malloc needs more.
 * Growth past the guest's memory budget (the same 128 MiB as a TypeScript guest's, and Cloudflare's limit per
 * isolate) is refused: Emscripten turns the refusal into a failed allocation, so the agent's Python sees a
 * MemoryError where it asked for too much, and the isolate, with every other tenant, stays up (docs/decisions/0155).
 */
function boundPythonMemory(): void {
  const grow = WebAssembly.Memory.prototype.grow;
  WebAssembly.Memory.prototype.grow = function boundedGrow(this: WebAssembly.Memory, delta: number): number {
    if (this.buffer.byteLength + delta * WASM_PAGE_BYTES > GUEST_MEMORY_BYTES)
      throw new RangeError(`past the agent's memory budget of ${GUEST_MEMORY_BYTES / 1024 / 1024} MiB`);
    return grow.call(this, delta);
  };
}

/** Pyodide fetches its standard library while it starts: served from the bundled zip, nothing leaves the isolate. */
async function withBundledFiles<T>(run: () => Promise<T>): Promise<T> {
  const nativeFetch = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url === `${INDEX_URL}python_stdlib.zip`) return new Response(STDLIB);
    if (url === `${INDEX_URL}pyodide.asm.wasm`) return new Response(null);
    return nativeFetch(input, init);
  };
  try {
    return await run();
  } finally {
    globalThis.fetch = nativeFetch;
  }
}

/** Pyodide, started once per isolate from the memory snapshot, with the platform's `uagents` package in site-packages. */
export async function startPython(snapshot: ArrayBuffer, print: (level: 'info' | 'erro', line: string) => void): Promise<PyodideInterface> {
  usePrecompiledModules();
  boundPythonMemory();
  const pyodide = await withBundledFiles(() =>
    loadPyodide({
      // Python's memory as it is once the interpreter is initialised (made at build time, decision 0153):
      // restoring it skips most of a cold start's CPU.
      _loadSnapshot: new Uint8Array(snapshot),
      indexURL: INDEX_URL,
      lockFileContents: { info: PYODIDE_LOCK_INFO, packages: {} },
      stdout: (line) => print('info', line),
      stderr: (line) => print('erro', line),
    }),
  );
  // Pyodide keeps its options, the snapshot among them: detached, its bytes are freed now that memory is restored.
  structuredClone(snapshot, { transfer: [snapshot] });
  for (const [path, source] of Object.entries(PYTHON_SITE)) {
    const file = `${SITE_PACKAGES}/${path}`;
    pyodide.FS.mkdirTree(file.slice(0, file.lastIndexOf('/')));
    pyodide.FS.writeFile(file, source);
  }
  return pyodide;
}
