/** The router's base URL, fixed at build time (VITE_ROUTER_URL); the local stack's router by default. */
export const ROUTER_URL: string = (import.meta.env.VITE_ROUTER_URL ?? 'http://localhost:5001').replace(/\/+$/, '');

/** Spec limits of the client's polling. */
export const POLL_INTERVAL_MS = 1000;
export const POLL_TIMEOUT_MS = 120_000;
