import type { Plugin } from 'vite';
import { apiOrigins, headersFile, securityHeaders } from './security-headers.ts';

/**
 * Serves the security headers from Vite's dev and preview servers and writes them into the build as Pages'
 * `_headers`, with the API origins the build was configured with (they differ per deployment, so the file is
 * generated, not kept in public/).
 */
export function securityHeadersPlugin(): Plugin {
  let origins: string[] = [];
  type Response = { setHeader(name: string, value: string): void };
  const serve = (headers: Record<string, string>) => (_request: unknown, response: Response, next: () => void) => {
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    next();
  };
  return {
    name: 'rendezvous-security-headers',
    configResolved(config) {
      origins = apiOrigins(config.env);
    },
    configureServer(server) {
      server.middlewares.use(serve(securityHeaders(origins, true)));
    },
    configurePreviewServer(server) {
      server.middlewares.use(serve(securityHeaders(origins)));
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: '_headers', source: headersFile(securityHeaders(origins)) });
    },
  };
}
