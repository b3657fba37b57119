/** A key's own meter (one Durable Object per key id), which also holds its verified registry record. */
export function meterFor(env: ChatEnv, keyId: string) {
  return env.KEY_METER.get(env.KEY_METER.idFromName(keyId));
}
