/**
 * What Pyodide looks for before it starts, set before its module is evaluated (it detects its environment
 * then): a worker's importScripts (never called: the Emscripten module is bundled), a location, and
 * setImmediate (else Emscripten builds one on window messages, which a Worker has not).
 */
export const INDEX_URL = 'https://pyodide.rendezvous.invalid/';

const scope = globalThis as { importScripts?: unknown; location?: unknown; setImmediate?: unknown; clearImmediate?: unknown };
scope.importScripts ??= () => {
  throw new TypeError('importScripts is not available to hosted agents');
};
scope.location ??= new URL(INDEX_URL);
scope.setImmediate ??= (run: (...args: unknown[]) => void, ...args: unknown[]) => setTimeout(run, 0, ...args);
scope.clearImmediate ??= (id: number) => clearTimeout(id);
