/**
 * Pyodide's memory snapshot as the hosting Worker ships it: the guest restores Python from it instead of
 * initialising the interpreter (decision 0153). Most of a snapshot is the wasm's own data segment, which the
 * Worker carries anyway in pyodide.asm.wasm; the snapshot is stored XORed with that segment at its place in
 * memory, so the bytes the two share are zeros that compress to nothing. Stored form: the segment's offset
 * (u32, little-endian), then the XORed memory.
 */

const HEADER_BYTES = 4;
const DATA_SECTION = 11;

function reader(bytes: Uint8Array, start: number) {
  let at = start;
  return {
    get at() {
      return at;
    },
    byte: () => bytes[at++]!,
    uleb(): number {
      let value = 0;
      let shift = 0;
      let byte: number;
      do {
        byte = bytes[at++]!;
        value += (byte & 0x7f) * 2 ** shift;
        shift += 7;
      } while (byte & 0x80);
      return value;
    },
    skip(count: number) {
      at += count;
    },
  };
}

/** The bytes of the wasm's one active data segment (Pyodide's main module has one, placed at __memory_base). */
function dataSegment(wasm: Uint8Array): Uint8Array {
  const read = reader(wasm, 8);
  while (read.at < wasm.length) {
    const id = read.byte();
    const size = read.uleb();
    if (id !== DATA_SECTION) {
      read.skip(size);
      continue;
    }
    const count = read.uleb();
    const flags = read.uleb();
    if (count !== 1 || flags !== 0)
      throw new Error(`the wasm's data section is not one active segment (${count} segments, flags ${flags})`);
    // The offset: one constant instruction (global.get __memory_base or i32.const n), then `end`.
    const opcode = read.byte();
    read.uleb();
    if (read.byte() !== 0x0b) throw new Error(`the data segment's offset is not a single instruction (0x${opcode.toString(16)})`);
    const length = read.uleb();
    return wasm.subarray(read.at, read.at + length);
  }
  throw new Error('the wasm has no data section');
}

function xorAt(memory: Uint8Array, segment: Uint8Array, offset: number): void {
  for (let index = 0; index < segment.length; index++) memory[offset + index]! ^= segment[index]!;
}

/** Where `needle` first occurs in `memory`, or -1. */
function placeOf(memory: Uint8Array, needle: Uint8Array): number {
  for (let at = memory.indexOf(needle[0]!); at >= 0 && at + needle.length <= memory.length; at = memory.indexOf(needle[0]!, at + 1)) {
    if (needle.every((byte, index) => memory[at + index] === byte)) return at;
  }
  return -1;
}

/** The snapshot as shipped: the data segment is found where Pyodide placed it, and XORed out. */
export function storedSnapshot(snapshot: Uint8Array, wasm: Uint8Array): Uint8Array {
  const segment = dataSegment(wasm);
  const offset = placeOf(snapshot, segment.subarray(0, 256));
  if (offset < 0) throw new Error("the snapshot does not hold the wasm's data segment");
  const stored = new Uint8Array(HEADER_BYTES + snapshot.length);
  new DataView(stored.buffer).setUint32(0, offset, true);
  stored.set(snapshot, HEADER_BYTES);
  xorAt(stored.subarray(HEADER_BYTES), segment, offset);
  return stored;
}

/** The snapshot Pyodide restores, from the stored form and the same wasm. */
export function restoredSnapshot(stored: Uint8Array, wasm: Uint8Array): Uint8Array {
  const offset = new DataView(stored.buffer, stored.byteOffset, stored.byteLength).getUint32(0, true);
  const memory = stored.slice(HEADER_BYTES);
  xorAt(memory, dataSegment(wasm), offset);
  return memory;
}
