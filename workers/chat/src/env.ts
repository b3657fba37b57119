import type { KeyServiceContract, WordVectorsContract } from '../../../lib/rpc-contracts/index.ts';

/**
 * The chat Worker's bindings: ChatEnv as `wrangler types` generates it, with the registry's KeyService and WordVectors
 * entrypoints typed from its contract (wrangler sees one Worker's config, so it types the binding as a bare
 * Service).
 */
export type ChatBindings = Omit<ChatEnv, 'REGISTRY' | 'WORD_VECTORS'> & {
  REGISTRY: Service<KeyServiceContract>;
  WORD_VECTORS: Service<WordVectorsContract>;
};
