/** The Durable Object slot of one request, named by the request id (its envelope session). */
export function answerSlot(env: RouterEnv, requestId: string) {
  return env.ANSWER_SLOT.get(env.ANSWER_SLOT.idFromName(requestId));
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
  const seconds = Number(env.ANSWER_TTL_SECONDS);
  return (Number.isFinite(seconds) && seconds > 0 ? seconds : 3600) * 1000;
}
