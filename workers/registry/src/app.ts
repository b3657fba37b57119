import type { KeyRevocationsContract } from '../../../lib/rpc-contracts/index.ts';
import type { AuthenticatedKey } from './keys/authenticate.ts';

/**
 * The registry's bindings: RegistryEnv as `wrangler types` generates it, with the chat Worker's
 * KeyRevocations entrypoint typed from its contract (wrangler sees one Worker's config, so it types the
 * binding as a bare Service).
 */
export type RegistryBindings = Omit<RegistryEnv, 'CHAT_KEYS'> & { CHAT_KEYS: Service<KeyRevocationsContract> };

/** The registry's Hono environment: its bindings, and the key a route's middleware authenticated. */
export type RegistryApp = { Bindings: RegistryBindings; Variables: { key: AuthenticatedKey } };
