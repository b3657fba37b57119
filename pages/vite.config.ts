import { defineConfig } from 'vite';
import solid from 'vite-plugin-solid';
import { securityHeadersPlugin } from './build/security-headers-plugin.ts';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [solid(), securityHeadersPlugin()],
  server: { port: 5174, strictPort: true },
  preview: { port: 5174, strictPort: true },
  build: { outDir: 'dist', emptyOutDir: true },
});
