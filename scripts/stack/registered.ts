import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Waits until the registry resolves `address` (the almanac lookup every sender uses): an agent is ready then.
 * False after `timeoutMs`; `stillRunning` throws to stop waiting for an agent whose process has died.
 */
export async function registeredWithin(registryUrl: string, address: string, timeoutMs: number, stillRunning = () => {}): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    stillRunning();
    const response = await fetch(`${registryUrl}/v1/almanac/agents/${address}`).catch(() => undefined);
    if (response?.ok) return true;
    await sleep(250);
  }
  return false;
}
