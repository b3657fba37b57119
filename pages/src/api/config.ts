import { DEFAULT_API_URLS } from './default-urls.ts';

/** Base URLs of the platform's public APIs, fixed at build time; the local stack's by default. */
export const REGISTRY_URL: string = (import.meta.env.VITE_REGISTRY_URL ?? DEFAULT_API_URLS.VITE_REGISTRY_URL).replace(/\/+$/, '');
export const CHAT_URL: string = (import.meta.env.VITE_CHAT_URL ?? DEFAULT_API_URLS.VITE_CHAT_URL).replace(/\/+$/, '');
