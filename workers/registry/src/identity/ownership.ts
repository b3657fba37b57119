import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { verifyDigest } from '../../../../lib/identity/index.ts';
import { newChallenge } from '../../../../lib/registry-client/challenge.ts';
import type { IdentityProof } from '../../../../schemas/registry.ts';

/**
 * Proof of holding an address's seed: we issue a challenge (single use, short-lived, bound to the account
 * that asked), the agent signs it (`identity.sign(challenge)`), and the first account to prove an address
 * owns it. Nobody takes an address over without its seed, and no account takes another's.
 */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

export async function ownerOf(db: D1Database, address: string): Promise<string | null> {
  return (
    (await db.prepare('SELECT account_id FROM identities WHERE address = ?').bind(address).first<{ account_id: string }>())?.account_id ??
    null
  );
}

/**
 * Challenges an account may hold unused and unexpired at once. Registering uses each within seconds, so this
 * only stops a key from filling the table (each is a row for CHALLENGE_TTL_MS).
 */
export const MAX_OPEN_CHALLENGES = 50;

type ChallengeOutcome =
  | { ok: true; challenge: string }
  | { ok: false; status: 409; detail: string }
  | { ok: false; status: 429; detail: string; retryAfterSeconds: number };

export async function issueChallenge(db: D1Database, address: string, accountId: string, now = new Date()): Promise<ChallengeOutcome> {
  const owner = await ownerOf(db, address);
  if (owner && owner !== accountId) return { ok: false, status: 409, detail: `address ${address} is owned by another account` };
  const challenge = newChallenge();
  const stamp = now.toISOString();
  // One statement counts and inserts, so concurrent requests cannot pass the cap together.
  const [, inserted] = await db.batch([
    db.prepare('DELETE FROM challenges WHERE expires_at <= ?').bind(stamp),
    db
      .prepare(
        `INSERT INTO challenges (challenge, address, account_id, created_at, expires_at)
         SELECT ?1, ?2, ?3, ?4, ?5
         WHERE (SELECT count(*) FROM challenges WHERE account_id = ?3 AND used_at IS NULL AND expires_at > ?4) < ?6`,
      )
      .bind(challenge, address, accountId, stamp, new Date(now.getTime() + CHALLENGE_TTL_MS).toISOString(), MAX_OPEN_CHALLENGES),
  ]);
  if (inserted!.meta.changes === 1) return { ok: true, challenge };
  const oldest = await db
    .prepare('SELECT min(expires_at) AS at FROM challenges WHERE account_id = ? AND used_at IS NULL AND expires_at > ?')
    .bind(accountId, stamp)
    .first<{ at: string | null }>();
  const retryAfterSeconds = Math.max(
    1,
    Math.ceil(((oldest?.at ? Date.parse(oldest.at) : now.getTime() + CHALLENGE_TTL_MS) - now.getTime()) / 1000),
  );
  return {
    ok: false,
    status: 429,
    detail: `this account holds ${MAX_OPEN_CHALLENGES} unused challenges; use them (POST /v2/identity) or wait ${retryAfterSeconds} s for one to expire`,
    retryAfterSeconds,
  };
}

type ProofOutcome = { ok: true; address: string } | { ok: false; status: 401 | 409; detail: string };

interface ChallengeRow {
  address: string;
  account_id: string;
  expires_at: string;
  used_at: string | null;
}

export async function proveIdentity(db: D1Database, proof: IdentityProof, accountId: string, now = new Date()): Promise<ProofOutcome> {
  const row = await db
    .prepare('SELECT address, account_id, expires_at, used_at FROM challenges WHERE challenge = ?')
    .bind(proof.challenge)
    .first<ChallengeRow>();
  const stamp = now.toISOString();
  if (!row || row.account_id !== accountId)
    return { ok: false, status: 401, detail: 'unknown challenge: request one with GET /v2/identity/{address}/challenge' };
  if (row.address !== proof.address)
    return { ok: false, status: 401, detail: `the challenge was issued for ${row.address}, not ${proof.address}` };
  if (row.used_at) return { ok: false, status: 401, detail: 'the challenge was already used; request a new one' };
  if (row.expires_at <= stamp) return { ok: false, status: 401, detail: 'the challenge has expired; request a new one' };
  if (!verifyDigest(proof.address, sha256(utf8ToBytes(proof.challenge)), proof.challenge_response)) {
    return { ok: false, status: 401, detail: `challenge_response is not a signature of the challenge by ${proof.address}` };
  }
  const consumed = await db
    .prepare('UPDATE challenges SET used_at = ? WHERE challenge = ? AND used_at IS NULL AND expires_at > ?')
    .bind(stamp, proof.challenge, stamp)
    .run();
  if (consumed.meta.changes !== 1) return { ok: false, status: 401, detail: 'the challenge was already used; request a new one' };
  await db
    .prepare('INSERT INTO identities (address, account_id, proven_at) VALUES (?, ?, ?) ON CONFLICT (address) DO NOTHING')
    .bind(proof.address, accountId, stamp)
    .run();
  const owner = await ownerOf(db, proof.address);
  if (owner !== accountId) return { ok: false, status: 409, detail: `address ${proof.address} is owned by another account` };
  return { ok: true, address: proof.address };
}
