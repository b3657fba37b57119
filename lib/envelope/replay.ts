/**
 * How long an envelope without `expires` is remembered, in seconds (24 hours). The Python SDK sets
 * neither expires nor nonce, so for its envelopes this window is the replay protection: a copy that
 * arrives later than this is taken as new.
 */
export const REPLAY_WINDOW_SECONDS = 24 * 60 * 60;

/**
 * What a ledger says of a digest: new to it (and now claimed by the caller), seen before and not expired
 * (`replayed`), or claimed by a handler that has not finished yet (`in_progress`: the copy should come back
 * later, for that handler may still fail and give the digest back).
 */
export type ClaimOutcome = 'claimed' | 'replayed' | 'in_progress';

/** Remembers signed digests until their expiry. */
export interface ReplayGuard {
  claim(digestHex: string, expiresAtSeconds: number): Promise<ClaimOutcome>;
}

/** How often the in-memory guard drops expired digests. */
const SWEEP_INTERVAL_SECONDS = 60;

/** In-process guard for tests and single-isolate tools; not shared across isolates. */
export class MemoryReplayGuard implements ReplayGuard {
  private readonly seen = new Map<string, number>();
  private nextSweep = 0;
  constructor(private readonly now: () => number = () => Date.now() / 1000) {}

  async claim(digestHex: string, expiresAtSeconds: number): Promise<ClaimOutcome> {
    const now = this.now();
    // Sweeping on every claim would make each claim cost as much as the number of remembered digests.
    if (now >= this.nextSweep) {
      for (const [key, until] of this.seen) if (until <= now) this.seen.delete(key);
      this.nextSweep = now + SWEEP_INTERVAL_SECONDS;
    }
    const until = this.seen.get(digestHex);
    if (until !== undefined && until > now) return 'replayed';
    this.seen.set(digestHex, expiresAtSeconds);
    return 'claimed';
  }
}
