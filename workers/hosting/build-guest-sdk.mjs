// Bundles the guest SDK (the agent API hosted code imports, with zod) into one ES module as text.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
await build({
  entryPoints: [`${here}src/guest/sdk.ts`],
  outfile: `${here}dist/guest-sdk.txt`,
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  minify: true,
  external: ['cloudflare:workers'],
  loader: { '.txt': 'text' },
  logLevel: 'warning',
});
