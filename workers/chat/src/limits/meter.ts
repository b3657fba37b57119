import type { CallerKey } from '../auth/require-key.ts';

/** The calling key's own meter (one Durable Object per key id). */
export function meterFor(env: ChatEnv, key: CallerKey) {
  return env.KEY_METER.get(env.KEY_METER.idFromName(key.keyId));
}
