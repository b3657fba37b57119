import { WorkerEntrypoint } from 'cloudflare:workers';
import type { KeyRevocationsContract } from '../../../../lib/rpc-contracts/index.ts';
import { isKeyId } from '../../../../lib/api-keys/key-token.ts';
import { meterFor } from '../limits/meter.ts';

/**
 * What the registry calls (service binding, RPC) when a key changes. Before it revokes a key: the key's meter
 * forgets the verified record and refuses the key from then on. The registry revokes only after this
 * returned, so a deletion the registry confirmed is already in force here (docs/decisions/0003). After it changes a key's limits: the meter forgets the record, so the next request reads them.
 */
export class KeyRevocations extends WorkerEntrypoint<ChatEnv> implements KeyRevocationsContract {
  /** True once the key's meter has stored the revocation; false for what is not a key id (nothing thrown across RPC). */
  async revoke(keyId: string): Promise<boolean> {
    if (typeof keyId !== 'string' || !isKeyId(keyId)) return false;
    await meterFor(this.env, keyId).revoke();
    return true;
  }

  /** True once the key's meter has dropped its verified record; false for what is not a key id. */
  async forget(keyId: string): Promise<boolean> {
    if (typeof keyId !== 'string' || !isKeyId(keyId)) return false;
    await meterFor(this.env, keyId).forget();
    return true;
  }
}
