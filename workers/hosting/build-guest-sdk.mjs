// Bundles what the hosting Worker gives each Dynamic Worker, into dist/ (imported by the Worker as text or data):
// the guest SDK for TypeScript agents (with zod), and for Python agents the guest entrypoint (with Pyodide's
// JavaScript), the platform's Python packages (src/python/site) and Pyodide's wasm and standard library.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = fileURLToPath(new URL('.', import.meta.url));
const common = { bundle: true, format: 'esm', platform: 'neutral', target: 'es2022', logLevel: 'warning' };

await build({
  ...common,
  entryPoints: [`${here}src/guest/sdk.ts`],
  outfile: `${here}dist/guest-sdk.txt`,
  minify: true,
  external: ['cloudflare:workers'],
  loader: { '.txt': 'text' },
});

// Pyodide detects Node at run time and only then requires Node's modules: never in a Worker, so they stay out.
await build({
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
writeFileSync(`${here}dist/python-site.txt`, JSON.stringify(pythonFiles(`${here}src/python/site`)));

const pyodide = createRequire(import.meta.url)
  .resolve('pyodide/pyodide.asm.wasm')
  .replace(/pyodide\.asm\.wasm$/, '');
mkdirSync(`${here}dist/pyodide`, { recursive: true });
copyFileSync(`${pyodide}pyodide.asm.wasm`, `${here}dist/pyodide/pyodide.asm.wasm.bin`);
copyFileSync(`${pyodide}python_stdlib.zip`, `${here}dist/pyodide/python_stdlib.zip.bin`);
