import type { KeyCheck } from '../../../../lib/rpc-contracts/index.ts';

/**
 * How long a key the registry verified is trusted without asking again. Revocation through the registry
 * reaches the cache at once (the registry tells the key's KeyMeter first); this bound only covers changes made
 * around the registry's API (an edited D1 row), so they too take effect within minutes.
 */
const TRUSTED_FOR_MS = 5 * 60_000;

/** A registry verdict for one exact token, remembered by the token's hash (the secret itself is not kept). */
export interface VerifiedKey {
  tokenHash: string;
  check: Extract<KeyCheck, { ok: true }>;
  verifiedAt: number;
}

/** Whether a remembered verdict still answers for this token now: same token, not expired, recent enough. */
export function stillTrusted(verified: VerifiedKey, tokenHash: string, now: number): boolean {
  if (verified.tokenHash !== tokenHash) return false;
  if (now - verified.verifiedAt >= TRUSTED_FOR_MS) return false;
  const expiresAt = verified.check.expiresAt;
  return !expiresAt || Date.parse(expiresAt) > now;
}
