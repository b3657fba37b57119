import type { KeyRevocationsContract } from '../../../lib/rpc-contracts/index.ts';
import type { AuthenticatedKey } from './keys/authenticate.ts';
import type { ShardSet } from './shards/shard-set.ts';

/**
 * The registry's bindings: RegistryEnv as `wrangler types` generates it, with the chat Worker's
 * KeyRevocations entrypoint typed from its contract (wrangler sees one Worker's config, so it types the
 * binding as a bare Service).
 */
export type RegistryBindings = Omit<RegistryEnv, 'CHAT_KEYS'> & { CHAT_KEYS: Service<KeyRevocationsContract> };

/**
 * The registry's Hono environment: its bindings, the key a route's middleware authenticated, and the request's
 * agent shards, made on first use with the client's bookmarks (shards/request-shards.ts).
 */
export type RegistryApp = { Bindings: RegistryBindings; Variables: { key: AuthenticatedKey; shards: () => ShardSet } };
