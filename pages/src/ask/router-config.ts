import { DEFAULT_API_URLS } from '../api/default-urls.ts';

/** The router's base URL, fixed at build time (VITE_ROUTER_URL); the local stack's router by default. */
export const ROUTER_URL: string = (import.meta.env.VITE_ROUTER_URL ?? DEFAULT_API_URLS.VITE_ROUTER_URL).replace(/\/+$/, '');
