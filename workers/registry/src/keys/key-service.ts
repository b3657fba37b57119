import { WorkerEntrypoint } from 'cloudflare:workers';
import type { KeyCheck, KeyServiceContract } from '../../../../lib/rpc-contracts/index.ts';
import { permissionSchema } from '../../../../schemas/keys.ts';
import { authenticate } from './authenticate.ts';

/**
 * Key verification for the platform's other Workers over a service binding (RPC): they never read the
 * registry's D1, so a revoked key is refused everywhere at once.
 */
export class KeyService extends WorkerEntrypoint<RegistryEnv> implements KeyServiceContract {
  async authenticate(token: string, permission: 'read' | 'write' | 'chat' | 'hosting'): Promise<KeyCheck> {
    const wanted = permissionSchema.safeParse(permission);
    if (!wanted.success) return { ok: false, status: 403, message: `unknown permission ${JSON.stringify(permission)}` };
    const result = await authenticate(this.env.DB, typeof token === 'string' ? token : null, wanted.data);
    if (!result.ok) return result;
    return { ok: true, keyId: result.keyId, accountId: result.accountId, limits: result.limits, expiresAt: result.expiresAt };
  }
}
