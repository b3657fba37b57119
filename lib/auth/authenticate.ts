import { type KeyLimits, keyLimitsSchema, type Permission, permissionSchema } from '../../schemas/keys.ts';
import { parseKeyToken, secretMatches } from './tokens.ts';

export interface AuthenticatedKey {
  keyId: string;
  accountId: string;
  permissions: Permission[];
  limits: KeyLimits | null;
  /** ISO time the key stops working, or null; lets a holder of the verdict (the chat Worker's cache) honour it. */
  expiresAt: string | null;
}

export type AuthResult = ({ ok: true } & AuthenticatedKey) | { ok: false; status: 401 | 403; message: string };

interface KeyRow {
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

/**
 * Checks a bearer token for a permission (or any one of several). 401: missing, malformed, unknown, revoked or expired;
 * 403: a valid key without the permission. Revocation reads the row each time, so it takes effect at once.
 */
export async function authenticate(db: D1Database, token: string | null | undefined, permission: Permission | readonly Permission[], now = new Date()): Promise<AuthResult> {
  if (!token) return { ok: false, status: 401, message: 'missing API key: send Authorization: Bearer <API_KEY>' };
  const parsed = parseKeyToken(token);
  if (!parsed) return { ok: false, status: 401, message: 'invalid API key' };
  const row = await db
    .prepare('SELECT id, account_id, secret_hash, permissions, limits, expires_at, revoked_at, last_used_at FROM api_keys WHERE id = ?')
    .bind(parsed.id)
    .first<KeyRow>();
  if (!row || !secretMatches(parsed.secret, row.secret_hash)) return { ok: false, status: 401, message: 'invalid API key' };
  if (row.revoked_at) return { ok: false, status: 401, message: 'API key revoked' };
  if (row.expires_at && row.expires_at <= now.toISOString()) return { ok: false, status: 401, message: 'API key expired' };
  const permissions = parsePermissions(row.permissions);
  const wanted: readonly Permission[] = typeof permission === 'string' ? [permission] : permission;
  if (!wanted.some((name) => permissions.includes(name))) {
    const needed = wanted.map((name) => `"${name}"`).join(' or ');
    return { ok: false, status: 403, message: `API key lacks the ${needed} permission (it has: ${permissions.join(', ') || 'none'})` };
  }
  if (!row.last_used_at || Date.parse(row.last_used_at) < now.getTime() - LAST_USED_GRANULARITY_MS) {
    await db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').bind(now.toISOString(), row.id).run();
  }
  return { ok: true, keyId: row.id, accountId: row.account_id, permissions, limits: parseLimits(row.limits), expiresAt: row.expires_at };
}
