import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Rollup } from 'vite';

/**
 * bench:client — the browser client's weight. Builds pages/ as production does (into a temporary directory)
 * and prints every chunk's size, raw and gzipped. The first screen's JavaScript is what the browser must load
 * before it can show the screen the app opens on: the entry chunk, the first route's chunk (ROUTES[0] in
 * pages/src/routes.ts) and everything they import statically. Target: at most 30 kB gzipped (exit 1 otherwise).
 */
const TARGET_GZIP_KB = 30;
const FIRST_SCREEN_MODULE = 'pages/src/ask/AskScreen.tsx';

const outDir = mkdtempSync(join(tmpdir(), 'rendezvous-bench-client-'));
const result = await build({ configFile: 'pages/vite.config.ts', logLevel: 'error', build: { outDir, emptyOutDir: true } });
rmSync(outDir, { recursive: true, force: true });
const outputs = (Array.isArray(result) ? result : [result as Rollup.RolldownOutput]).flatMap((bundle) => bundle.output);
const chunks = outputs.filter((item): item is Rollup.OutputChunk => item.type === 'chunk');
const assets = outputs.filter((item): item is Rollup.OutputAsset => item.type === 'asset' && item.fileName.endsWith('.css'));

const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
// kB as Vite reports them (1000 bytes), gzip at zlib's default level as Vite's report does.
const gzipKb = (code: string | Uint8Array) => gzipSync(code).length / 1000;
const rawKb = (code: string | Uint8Array) => (typeof code === 'string' ? Buffer.byteLength(code) : code.length) / 1000;

/** The chunks and their static imports, transitively. */
function withStaticImports(roots: Rollup.OutputChunk[]): Set<Rollup.OutputChunk> {
  const seen = new Set<Rollup.OutputChunk>();
  const visit = (chunk: Rollup.OutputChunk) => {
    if (seen.has(chunk)) return;
    seen.add(chunk);
    for (const file of chunk.imports) visit(byFile.get(file)!);
  };
  roots.forEach(visit);
  return seen;
}

const entry = chunks.find((chunk) => chunk.isEntry);
const firstRoute = chunks.find((chunk) => chunk.facadeModuleId?.endsWith(FIRST_SCREEN_MODULE));
if (!entry || !firstRoute) throw new Error(`no ${entry ? `chunk for ${FIRST_SCREEN_MODULE}` : 'entry chunk'} in the build`);
const firstScreen = withStaticImports([entry, firstRoute]);
const firstScreenCss = new Set([...firstScreen].flatMap((chunk) => [...(chunk.viteMetadata?.importedCss ?? [])]));

const rows = [
  ...chunks.map((chunk) => ({
    file: chunk.fileName,
    raw: rawKb(chunk.code),
    gzip: gzipKb(chunk.code),
    first: firstScreen.has(chunk),
    role: chunk.isEntry ? 'entry' : chunk === firstRoute ? 'first route' : '',
  })),
  ...assets.map((asset) => ({
    file: asset.fileName,
    raw: rawKb(asset.source),
    gzip: gzipKb(asset.source),
    first: firstScreenCss.has(asset.fileName),
    role: 'css',
  })),
].sort((a, b) => Number(b.first) - Number(a.first) || b.gzip - a.gzip);

const pad = (text: string, width: number) => text.padEnd(width);
const kb = (value: number) => `${value.toFixed(2)} kB`.padStart(10);
const width = Math.max(...rows.map((row) => row.file.length)) + 2;
console.log(`${pad('chunk', width)}${'raw'.padStart(10)}${'gzip'.padStart(10)}  loaded`);
for (const row of rows) {
  const loaded = `${row.first ? 'first screen' : 'on demand'}${row.role ? ` (${row.role})` : ''}`;
  console.log(`${pad(row.file, width)}${kb(row.raw)}${kb(row.gzip)}  ${loaded}`);
}

const firstGzip = [...firstScreen].reduce((sum, chunk) => sum + gzipKb(chunk.code), 0);
const totalGzip = chunks.reduce((sum, chunk) => sum + gzipKb(chunk.code), 0);
const pass = firstGzip <= TARGET_GZIP_KB;
const verdict = pass ? 'PASS' : 'FAIL';
console.log(
  `\nfirst screen's JavaScript: ${firstScreen.size} chunks, ${firstGzip.toFixed(2)} kB gzipped (target ≤ ${TARGET_GZIP_KB} kB): ${verdict}`,
);
console.log(`all JavaScript: ${chunks.length} chunks, ${totalGzip.toFixed(2)} kB gzipped`);
if (!pass) process.exitCode = 1;
