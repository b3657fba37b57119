// Makes the memory snapshot Python guests start from (decision 0153): boots the pinned Pyodide under Node, as the
// guest would without a snapshot, and writes the snapshot in its stored form (src/python/memory-snapshot.ts).
// Run by workers/hosting/build-guest-sdk.mjs when the installed Pyodide changed: `tsx scripts/pyodide-snapshot.ts <out>`.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadPyodide } from 'pyodide';
import { storedSnapshot } from '../workers/hosting/src/python/memory-snapshot.ts';

const out = process.argv[2];
if (!out) throw new Error('usage: tsx scripts/pyodide-snapshot.ts <output file>');
const pyodide = await loadPyodide({ _makeSnapshot: true });
const wasm = readFileSync(createRequire(import.meta.url).resolve('pyodide/pyodide.asm.wasm'));
writeFileSync(out, storedSnapshot(pyodide.makeMemorySnapshot(), wasm));
