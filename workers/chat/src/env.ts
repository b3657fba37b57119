import type { KeyServiceContract } from '../../../lib/rpc-contracts/index.ts';

/**
 * The chat Worker's bindings: ChatEnv as `wrangler types` generates it, with the registry's KeyService
 * entrypoint typed from its contract (wrangler sees one Worker's config, so it types the binding as a bare
 * Service).
 */
export type ChatBindings = Omit<ChatEnv, 'REGISTRY'> & { REGISTRY: Service<KeyServiceContract> };
