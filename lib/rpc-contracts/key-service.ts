import type { KeyLimits } from '../../schemas/keys.ts';

/**
 * The RPC contracts between the registry and the chat and hosting Workers over their service bindings, written once:
 * each entrypoint class `implements` its contract, and the other side types its binding as
 * `Service<contract>` (wrangler types sees one Worker's config at a time, so it cannot type them itself).
 */

/** The registry's verdict on a token, as `KeyService.authenticate` answers it. */
export type KeyCheck =
  | { ok: true; keyId: string; accountId: string; limits: KeyLimits | null; expiresAt: string | null }
  | { ok: false; status: 401 | 403; message: string };

/**
 * The registry's `KeyService` entrypoint: key verification for the platform's other Workers, which never
 * read the registry's D1, so a revoked key is refused everywhere at once.
 */
export interface KeyServiceContract extends Rpc.WorkerEntrypointBranded {
  authenticate(token: string, permission: 'read' | 'write' | 'chat' | 'hosting'): Promise<KeyCheck>;
}

/** The chat Worker's `KeyRevocations` entrypoint: what the registry tells it when a key changes. */
export interface KeyRevocationsContract extends Rpc.WorkerEntrypointBranded {
  /** True once the chat Worker has stored the revocation. */
  revoke(keyId: string): Promise<boolean>;
  /** True once the chat Worker has dropped what it cached of the key, so it reads the key anew. */
  forget(keyId: string): Promise<boolean>;
}
