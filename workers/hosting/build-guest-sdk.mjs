// Bundles what the hosting Worker gives each Dynamic Worker, into dist/ (imported by the Worker as text or data):
// the guest SDK for TypeScript agents (with zod), and for Python agents the guest entrypoint (with Pyodide's
// JavaScript), the platform's Python packages (src/python/site), Pyodide's wasm and standard library, and the memory
// snapshot the guest starts Python from.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = fileURLToPath(new URL('.', import.meta.url));
const common = { bundle: true, format: 'esm', platform: 'neutral', target: 'es2022', logLevel: 'warning', write: false };

/**
 * Writes only what changed: every running `wrangler dev` of the hosting Worker watches these files, and a rewrite
 * with the same bytes (another stack starting, its build command run again) would restart it mid-request.
 */
function writeIfChanged(path, content) {
  const bytes = typeof content === 'string' ? Buffer.from(content) : Buffer.from(content);
  if (existsSync(path) && readFileSync(path).equals(bytes)) return;
  writeFileSync(path, bytes);
}

/** An esbuild build whose one output file is written only when it changed. */
async function buildTo(options) {
  const { outputFiles } = await build(options);
  mkdirSync(dirname(options.outfile), { recursive: true });
  for (const file of outputFiles) writeIfChanged(file.path, file.contents);
}

await buildTo({
  ...common,
  entryPoints: [`${here}src/guest/sdk.ts`],
  outfile: `${here}dist/guest-sdk.txt`,
  minify: true,
  external: ['cloudflare:workers'],
  loader: { '.txt': 'text' },
});

// Pyodide detects Node at run time and only then requires Node's modules: never in a Worker, so they stay out.
await buildTo({
  ...common,
  entryPoints: [`${here}src/python/guest/entrypoint.ts`],
  outfile: `${here}dist/python-guest.txt`,
  mainFields: ['module', 'main'],
  external: [
    'cloudflare:workers',
    'node:*',
    'ws',
    'fs',
    'path',
    'crypto',
    'child_process',
    'pyodide.asm.wasm',
    'python_stdlib.zip',
    'pyodide-trampolines.js',
    'python-site.json',
  ],
});

function pythonFiles(dir, prefix = '') {
  const files = {};
  for (const name of readdirSync(dir).sort()) {
    const path = `${dir}/${name}`;
    if (statSync(path).isDirectory()) Object.assign(files, pythonFiles(path, `${prefix}${name}/`));
    else if (name.endsWith('.py')) files[`${prefix}${name}`] = readFileSync(path, 'utf8');
  }
  return files;
}
writeIfChanged(`${here}dist/python-site.txt`, JSON.stringify(pythonFiles(`${here}src/python/site`)));

const pyodide = createRequire(import.meta.url)
  .resolve('pyodide/pyodide.asm.wasm')
  .replace(/pyodide\.asm\.wasm$/, '');
mkdirSync(`${here}dist/pyodide`, { recursive: true });
writeIfChanged(`${here}dist/pyodide/pyodide.asm.wasm.bin`, readFileSync(`${pyodide}pyodide.asm.wasm`));
writeIfChanged(`${here}dist/pyodide/python_stdlib.zip.bin`, readFileSync(`${pyodide}python_stdlib.zip`));

// The snapshot takes seconds to make: made again only when the installed Pyodide changed.
const snapshot = `${here}dist/pyodide/python-snapshot.bin`;
const snapshotOf = `${snapshot}.pyodide`;
const installed = `${JSON.parse(readFileSync(`${pyodide}package.json`, 'utf8')).version} ${statSync(`${pyodide}pyodide.asm.wasm`).size}`;
if (!existsSync(snapshot) || !existsSync(snapshotOf) || readFileSync(snapshotOf, 'utf8') !== installed) {
  execFileSync('npx', ['tsx', `${here}../../scripts/pyodide-snapshot.ts`, `${snapshot}.new`], { stdio: 'inherit' });
  renameSync(`${snapshot}.new`, snapshot);
  writeFileSync(snapshotOf, installed);
}
