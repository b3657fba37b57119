import type { KeyServiceContract } from '../../../lib/rpc-contracts/index.ts';

/**
 * The hosting Worker's bindings: HostingEnv as `wrangler types` generates it, with the registry's KeyService
 * entrypoint typed from its contract (wrangler sees one Worker's config, so it types the binding as a bare Service).
 */
export type HostingBindings = Omit<HostingEnv, 'REGISTRY'> & { REGISTRY: Service<KeyServiceContract> };

/** The hosting Worker's Hono environment: its bindings, and the account the caller's key belongs to. */
export type HostingApp = { Bindings: HostingBindings; Variables: { accountId: string } };
