/** Base URLs of the platform's public APIs, fixed at build time; the local stack's by default. */
export const REGISTRY_URL: string = (import.meta.env.VITE_REGISTRY_URL ?? 'http://localhost:8787').replace(/\/+$/, '');
export const CHAT_URL: string = (import.meta.env.VITE_CHAT_URL ?? 'http://localhost:8788').replace(/\/+$/, '');
