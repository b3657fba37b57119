import { envNumber } from '../../../lib/config/env-number.ts';
/**
 * Answer slots live in this many Durable Objects, each holding the slots of the request ids that fall in it.
 * Not one object per request: locally every new object is a new SQLite file, which cost the router's one
 * thread ~3 ms per request (half its CPU per answer), and every poll of a made-up id opened one. Fixed: a
 * request's shard must not change while it lives. On the edge each shard takes hundreds of calls a second.
 */
const SLOT_SHARDS = 32;

/** The shard of a request id (a UUID, validated at the edge of the API): its first two hex digits. */
function shardOf(requestId: string): number {
  const lead = Number.parseInt(requestId.slice(0, 2), 16);
  return (Number.isNaN(lead) ? 0 : lead) % SLOT_SHARDS;
}

/**
 * The Durable Object that holds a request's answer slot (answer-slots.ts); each of its calls names the
 * request id (its envelope session) first.
 */
export function slotShard(env: RouterEnv, requestId: string) {
  return env.ANSWER_SLOTS.get(env.ANSWER_SLOTS.idFromName(`slots-${shardOf(requestId)}`));
}

/** LEGACY_GLOBAL_SLOT: the spec's single slot, which hands any caller the latest answer, is off unless turned on. */
export function legacyGlobalSlot(env: RouterEnv): boolean {
  return env.LEGACY_GLOBAL_SLOT === 'true';
}

/** The spec's one global slot. */
export function globalSlot(env: RouterEnv) {
  return env.GLOBAL_SLOT.get(env.GLOBAL_SLOT.idFromName('global'));
}

/** How long a request's slot (and its answer) is kept; ANSWER_TTL_SECONDS, one hour by default. */
export function answerTtlMs(env: RouterEnv): number {
  return envNumber(env.ANSWER_TTL_SECONDS, 3600) * 1000;
}
