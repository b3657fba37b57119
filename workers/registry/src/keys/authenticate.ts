import { type KeyLimits, keyLimitsSchema, type Permission, permissionSchema } from '../../../../schemas/keys.ts';
import { parseKeyToken, secretMatches } from '../../../../lib/api-keys/key-token.ts';

export interface AuthenticatedKey {
  keyId: string;
  accountId: string;
  permissions: Permission[];
  limits: KeyLimits | null;
  /** ISO time the key stops working, or null; lets a holder of the verdict (the chat Worker's cache) honour it. */
  expiresAt: string | null;
}

export type AuthResult = ({ ok: true } & AuthenticatedKey) | { ok: false; status: 401 | 403; message: string };

export interface KeyRow {
  id: string;
  account_id: string;
  secret_hash: string;
  permissions: string;
  limits: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}

/** last_used_at is refreshed at most this often, so authentication stays a read. */
const LAST_USED_GRANULARITY_MS = 60 * 60 * 1000;

export function parsePermissions(text: string): Permission[] {
  try {
    const parsed = permissionSchema.array().safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

export function parseLimits(text: string | null): KeyLimits | null {
  if (!text) return null;
  try {
    const parsed = keyLimitsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A key row read by id: run alone (authenticate) or as one statement of a route's own batch (keyLookup). */
export const KEY_ROW_SQL =
  'SELECT id, account_id, secret_hash, permissions, limits, expires_at, revoked_at, last_used_at FROM api_keys WHERE id = ?1';

/** A token shaped like a key: its id (the row to read), its secret, and the secret's stored form. */
export interface ParsedKey {
  id: string;
  secret: string;
}

/** The 401 of a token that no row can match (absent or not shaped like a key): no database read needed. */
export function parseBearer(token: string | null | undefined): ParsedKey | Extract<AuthResult, { ok: false }> {
  if (!token) return { ok: false, status: 401, message: 'missing API key: send Authorization: Bearer <API_KEY>' };
  return parseKeyToken(token) ?? { ok: false, status: 401, message: 'invalid API key' };
}

/** The verdict on a key row read for `parsed` (undefined: no such key), and whether last_used_at is due a refresh. */
export function judgeKeyRow(
  parsed: ParsedKey,
  row: KeyRow | undefined,
  permission: Permission | readonly Permission[],
  now: Date,
): { result: AuthResult; touch: boolean } {
  const refuse = (status: 401 | 403, message: string) => ({ result: { ok: false, status, message } as const, touch: false });
  if (!row || !secretMatches(parsed.secret, row.secret_hash)) return refuse(401, 'invalid API key');
  if (row.revoked_at) return refuse(401, 'API key revoked');
  if (row.expires_at && row.expires_at <= now.toISOString()) return refuse(401, 'API key expired');
  const permissions = parsePermissions(row.permissions);
  const wanted: readonly Permission[] = typeof permission === 'string' ? [permission] : permission;
  if (!wanted.some((name) => permissions.includes(name))) {
    const needed = wanted.map((name) => `"${name}"`).join(' or ');
    return refuse(403, `API key lacks the ${needed} permission (it has: ${permissions.join(', ') || 'none'})`);
  }
  const touch = !row.last_used_at || Date.parse(row.last_used_at) < now.getTime() - LAST_USED_GRANULARITY_MS;
  return {
    result: { ok: true, keyId: row.id, accountId: row.account_id, permissions, limits: parseLimits(row.limits), expiresAt: row.expires_at },
    touch,
  };
}

export async function touchLastUsed(db: D1Database, keyId: string, now: Date): Promise<void> {
  await db.prepare('UPDATE api_keys SET last_used_at = ?1 WHERE id = ?2').bind(now.toISOString(), keyId).run();
}

/**
 * Checks a bearer token for a permission (or any one of several). 401: missing, malformed, unknown, revoked or expired;
 * 403: a valid key without the permission. Revocation reads the row each time, so it takes effect at once.
 */
export async function authenticate(
  db: D1Database,
  token: string | null | undefined,
  permission: Permission | readonly Permission[],
  now = new Date(),
): Promise<AuthResult> {
  const parsed = parseBearer(token);
  if ('ok' in parsed) return parsed;
  const row = await db.prepare(KEY_ROW_SQL).bind(parsed.id).first<KeyRow>();
  const { result, touch } = judgeKeyRow(parsed, row ?? undefined, permission, now);
  if (touch && result.ok) await touchLastUsed(db, result.keyId, now);
  return result;
}
