import { trip } from './guard.ts';
import { GUEST_MEMORY_BYTES } from './protocol.ts';

/**
 * The memory budget of a hosted agent's isolate, for binary memory. Local workerd enforces no memory limit on
 * any isolate, and a V8 heap that runs out aborts the whole process, every tenant with it (issue 22, finding 7;
 * docs/decisions/0107). Before any of the agent's code runs, this replaces ArrayBuffer and every typed array
 * constructor with ones that count the bytes they allocate, refuse an allocation that would take the isolate's
 * live binary memory past GUEST_MEMORY_BYTES (before a byte of it is allocated), and credit the bytes back once
 * the garbage collector frees them. Going over trips the guard: the agent is stopped, and its logs say why.
 * Memory the runtime allocates itself (a fetched body, structuredClone, TextEncoder) and the JavaScript heap
 * (arrays, objects, strings) are not counted; deployed, Cloudflare's own limit covers them.
 */
let live = 0;
const freed = new FinalizationRegistry<number>((bytes) => {
  live -= bytes;
});

const MiB = 1024 * 1024;

function charge(bytes: number): void {
  if (!(bytes > 0)) return;
  if (live + bytes > GUEST_MEMORY_BYTES)
    trip(
      `the agent's code asked for ${Math.ceil(bytes / MiB)} MiB of binary memory while holding ${Math.ceil(live / MiB)} MiB, past its memory budget of ${GUEST_MEMORY_BYTES / MiB} MiB`,
    );
}

function credit(buffer: object, bytes: number): void {
  if (!(bytes > 0)) return;
  live += bytes;
  freed.register(buffer, bytes);
}

/** The bytes `new ArrayBuffer(length, options)` reserves: its length, or its maximum when resizable. */
function arrayBufferBytes(args: unknown[]): number {
  const length = Number(args[0]) || 0;
  const max = Number((args[1] as { maxByteLength?: unknown } | undefined)?.maxByteLength) || 0;
  return Math.max(length, max);
}

type TypedArrayConstructor = { BYTES_PER_ELEMENT: number; prototype: object };

/** The bytes a typed array constructor allocates: none for a view of a buffer, its length times its element size otherwise. */
function typedArrayBytes(kind: TypedArrayConstructor, args: unknown[]): number {
  const [source] = args;
  if (source instanceof ArrayBuffer || (typeof SharedArrayBuffer === 'function' && source instanceof SharedArrayBuffer)) return 0;
  const length = typeof source === 'object' && source !== null ? Number((source as { length?: unknown }).length) || 0 : Number(source) || 0;
  return length * kind.BYTES_PER_ELEMENT;
}

function metered<C extends new (...args: never[]) => object>(
  original: C,
  bytesOf: (args: unknown[]) => number,
  bufferOf: (made: object) => object,
): C {
  const proxy = new Proxy(original, {
    construct(target, args, newTarget) {
      const bytes = bytesOf(args);
      charge(bytes);
      const made = Reflect.construct(target, args, newTarget === proxy ? target : newTarget) as object;
      credit(bufferOf(made), bytes);
      return made;
    },
  });
  // Species lookups (slice, map, subarray's siblings) find the metered constructor, not the original.
  Object.defineProperty(original.prototype, 'constructor', { value: proxy, writable: true, configurable: true });
  return proxy;
}

const TYPED_ARRAYS = [
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
] as const;

const WASM_PAGE_BYTES = 64 * 1024;

/** A method that allocates a new buffer of `bytesOf(args)` bytes (ArrayBuffer's transfer, a wasm memory's grow), metered. */
function meterMethod(
  prototype: object,
  name: string,
  bytesOf: (self: object, args: unknown[]) => number,
  bufferOf: (self: object, result: unknown) => object,
) {
  const original = Reflect.get(prototype, name) as ((...args: unknown[]) => unknown) | undefined;
  if (typeof original !== 'function') return;
  Object.defineProperty(prototype, name, {
    value: function (this: object, ...args: unknown[]) {
      const bytes = bytesOf(this, args);
      charge(bytes);
      const result = original.apply(this, args);
      credit(bufferOf(this, result), bytes);
      return result;
    },
    writable: true,
    configurable: true,
  });
}

/** Installs the meter in this isolate's globals; the guest SDK calls it once, when it loads. */
export function meterBinaryMemory(): void {
  const scope = globalThis as unknown as Record<string, unknown>;
  for (const name of ['transfer', 'transferToFixedLength']) {
    meterMethod(
      ArrayBuffer.prototype,
      name,
      (self, args) => (args[0] === undefined ? (self as ArrayBuffer).byteLength : Number(args[0]) || 0),
      (_, result) => result as object,
    );
  }
  scope.ArrayBuffer = metered(ArrayBuffer, arrayBufferBytes, (made) => made);
  // A wasm memory is binary memory too (compiling wasm from bytes is refused, but a Memory needs no module).
  const wasm = WebAssembly as unknown as Record<string, unknown>;
  wasm.Memory = metered(
    WebAssembly.Memory,
    (args) => (Number((args[0] as { maximum?: unknown; initial?: unknown } | undefined)?.initial) || 0) * WASM_PAGE_BYTES,
    (made) => made,
  );
  meterMethod(
    WebAssembly.Memory.prototype,
    'grow',
    (_, args) => (Number(args[0]) || 0) * WASM_PAGE_BYTES,
    (self) => self,
  );
  for (const name of TYPED_ARRAYS) {
    const original = scope[name] as (new (...args: never[]) => object) & TypedArrayConstructor;
    scope[name] = metered(
      original,
      (args) => typedArrayBytes(original, args),
      (made) => (made as { buffer: object }).buffer,
    );
  }
}
