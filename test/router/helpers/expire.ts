import { env, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { slotShard } from '../../../workers/router/src/slots.ts';

/** Lets a request's hour pass: its slot's expiry is moved to the past, then its shard's sweep (alarm) runs. */
export async function expireRequest(requestId: string): Promise<void> {
  const shard = slotShard(env, requestId);
  await runInDurableObject(shard, (_, state) => {
    state.storage.sql.exec('UPDATE slots SET expires_at = ? WHERE request_id = ?', Date.now() - 1, requestId);
  });
  if (!(await runDurableObjectAlarm(shard))) throw new Error(`the slot shard of ${requestId} had no alarm scheduled`);
}
