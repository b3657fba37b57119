import type { AuthenticatedKey } from '../../../lib/auth/index.ts';

/** The registry's Hono environment: its bindings, and the key a route's middleware authenticated. */
export type RegistryApp = { Bindings: RegistryEnv; Variables: { key: AuthenticatedKey } };
