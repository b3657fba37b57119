/**
 * Where the client finds the platform's APIs when the build names none (VITE_ROUTER_URL, VITE_REGISTRY_URL,
 * VITE_CHAT_URL): the local stack. Read by the client and by the build, which allows these origins in the CSP.
 */
export const DEFAULT_API_URLS = {
  VITE_ROUTER_URL: 'http://localhost:5001',
  VITE_REGISTRY_URL: 'http://localhost:8787',
  VITE_CHAT_URL: 'http://localhost:8788',
} as const;

export type ApiUrlVariable = keyof typeof DEFAULT_API_URLS;
