/** How long an agent that failed to take a request is tried after the others. */
const FAILED_AGENT_TTL_MS = 60_000;

/** Per isolate: a short memory of agents that could not take a request, so one dead agent does not slow every request. */
const failedUntil = new Map<string, number>();

export function rememberFailure(address: string, now = Date.now()): void {
  failedUntil.set(address, now + FAILED_AGENT_TTL_MS);
}

export function forgetFailure(address: string): void {
  failedUntil.delete(address);
}

export function failedRecently(address: string, now = Date.now()): boolean {
  const until = failedUntil.get(address);
  if (until === undefined) return false;
  if (until > now) return true;
  failedUntil.delete(address);
  return false;
}
