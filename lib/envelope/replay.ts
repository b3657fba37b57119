/**
 * How long an envelope without `expires` is remembered, in seconds (24 hours). The Python SDK sets
 * neither expires nor nonce, so for its envelopes this window is the replay protection: a copy that
 * arrives later than this is taken as new.
 */
export const REPLAY_WINDOW_SECONDS = 24 * 60 * 60;

/** Remembers signed digests; `claim` answers false when the digest was seen before and has not expired. */
export interface ReplayGuard {
  claim(digestHex: string, expiresAtSeconds: number): Promise<boolean>;
}

/** How often the in-memory guard drops expired digests. */
const SWEEP_INTERVAL_SECONDS = 60;

/** In-process guard for tests and single-isolate tools; not shared across isolates. */
export class MemoryReplayGuard implements ReplayGuard {
  private readonly seen = new Map<string, number>();
  private nextSweep = 0;
  constructor(private readonly now: () => number = () => Date.now() / 1000) {}

  async claim(digestHex: string, expiresAtSeconds: number): Promise<boolean> {
    const now = this.now();
    // Sweeping on every claim would make each claim cost as much as the number of remembered digests.
    if (now >= this.nextSweep) {
      for (const [key, until] of this.seen) if (until <= now) this.seen.delete(key);
      this.nextSweep = now + SWEEP_INTERVAL_SECONDS;
    }
    const until = this.seen.get(digestHex);
    if (until !== undefined && until > now) return false;
    this.seen.set(digestHex, expiresAtSeconds);
    return true;
  }
}
