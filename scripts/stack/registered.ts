import { setTimeout as sleep } from 'node:timers/promises';
import { almanacRecordSchema } from '../../schemas/registry.ts';

/**
 * Waits until the registry resolves `address` (the almanac lookup every sender uses) and the agent has not signed
 * itself inactive (a restarted agent: until its new registration says it is back, search leaves it out).
 * False after `timeoutMs`; `stillRunning` throws to stop waiting for an agent whose process has died.
 */
export async function registeredWithin(registryUrl: string, address: string, timeoutMs: number, stillRunning = () => {}): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    stillRunning();
    const response = await fetch(`${registryUrl}/v1/almanac/agents/${address}`).catch(() => undefined);
    if (response?.ok) {
      const record = almanacRecordSchema.safeParse(await response.json().catch(() => null));
      if (record.success && record.data.status !== 'inactive') return true;
    } else await response?.body?.cancel();
    await sleep(250);
  }
  return false;
}
