/** How long an envelope without `expires` is remembered. The Python SDK sets neither expires nor nonce. */
export const REPLAY_WINDOW_SECONDS = 24 * 60 * 60;

/** Remembers signed digests; `claim` answers false when the digest was seen before. */
export interface ReplayGuard {
  claim(digestHex: string, expiresAtSeconds: number): Promise<boolean>;
}

/** In-process guard for tests and single-isolate tools; not shared across isolates. */
export class MemoryReplayGuard implements ReplayGuard {
  private readonly seen = new Map<string, number>();
  constructor(private readonly now: () => number = () => Date.now() / 1000) {}

  async claim(digestHex: string, expiresAtSeconds: number): Promise<boolean> {
    const now = this.now();
    for (const [key, until] of this.seen) if (until <= now) this.seen.delete(key);
    if (this.seen.has(digestHex)) return false;
    this.seen.set(digestHex, expiresAtSeconds);
    return true;
  }
}

