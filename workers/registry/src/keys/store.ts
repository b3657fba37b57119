import type { ApiKey, CreatedKey, KeyLimits, Permission } from '../../../../schemas/keys.ts';
import { parseLimits, parsePermissions } from './authenticate.ts';
import { keyPrefix, newKeyToken } from '../../../../lib/api-keys/key-token.ts';

/** Accounts and API keys in the registry's D1: create, list (never the secret), update, revoke. */

export async function createAccount(db: D1Database, name: string, now = new Date()): Promise<string> {
  const id = crypto.randomUUID();
  await db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)').bind(id, name, now.toISOString()).run();
  return id;
}

export async function accountExists(db: D1Database, accountId: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 FROM accounts WHERE id = ?').bind(accountId).first()) !== null;
}

export interface NewKey {
  accountId: string;
  name: string;
  permissions: Permission[];
  limits?: KeyLimits | null;
  expiresAt?: Date | null;
  /** The account's live (unrevoked, unexpired) keys must stay fewer than this for the key to be made. */
  maxLiveKeys: number;
}

/** Creates a key, or answers null when the account already holds `maxLiveKeys` live keys (checked in the insert itself). */
export async function createKey(db: D1Database, key: NewKey, now = new Date()): Promise<CreatedKey | null> {
  const { id, token, secretHash } = newKeyToken();
  const permissions = [...new Set(key.permissions)];
  const limits = key.limits ?? null;
  const createdAt = now.toISOString();
  const expiresAt = key.expiresAt ? key.expiresAt.toISOString() : null;
  const inserted = await db
    .prepare(
      `INSERT INTO api_keys (id, account_id, name, secret_hash, permissions, limits, created_at, expires_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8
       WHERE (SELECT count(*) FROM api_keys WHERE account_id = ?2 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?7)) < ?9`,
    )
    .bind(
      id,
      key.accountId,
      key.name,
      secretHash,
      JSON.stringify(permissions),
      limits ? JSON.stringify(limits) : null,
      createdAt,
      expiresAt,
      key.maxLiveKeys,
    )
    .run();
  if (inserted.meta.changes !== 1) return null;
  return {
    id,
    account_id: key.accountId,
    name: key.name,
    prefix: keyPrefix(id),
    permissions,
    limits,
    created_at: createdAt,
    expires_at: expiresAt,
    last_used_at: null,
    key: token,
  };
}

interface ListedRow {
  id: string;
  account_id: string;
  name: string;
  permissions: string;
  limits: string | null;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
}

const LISTED_COLUMNS = 'id, account_id, name, permissions, limits, created_at, expires_at, last_used_at';

/** Keys not revoked, newest first; all accounts' when `accountId` is null (admin). */
export async function listKeys(db: D1Database, accountId: string | null): Promise<ApiKey[]> {
  const statement = accountId
    ? db
        .prepare(`SELECT ${LISTED_COLUMNS} FROM api_keys WHERE revoked_at IS NULL AND account_id = ? ORDER BY created_at DESC, id`)
        .bind(accountId)
    : db.prepare(`SELECT ${LISTED_COLUMNS} FROM api_keys WHERE revoked_at IS NULL ORDER BY created_at DESC, id`);
  const { results } = await statement.all<ListedRow>();
  return results.map(listedKey);
}

export interface KeyChanges {
  name?: string;
  /** null: the deployment's default limits. */
  limits?: KeyLimits | null;
}

/** Renames a live key of `accountId` (any account's when null) or changes its limits; null when no such live key. */
export async function updateKey(db: D1Database, id: string, accountId: string | null, changes: KeyChanges): Promise<ApiKey | null> {
  const limits = changes.limits === undefined ? undefined : changes.limits ? JSON.stringify(changes.limits) : null;
  // ?2/?3 flag which fields the request gave, so one statement serves every combination.
  const row = await db
    .prepare(
      `UPDATE api_keys SET name = CASE WHEN ?2 THEN ?1 ELSE name END, limits = CASE WHEN ?4 THEN ?3 ELSE limits END
       WHERE id = ?5 AND revoked_at IS NULL AND (?6 IS NULL OR account_id = ?6)
       RETURNING ${LISTED_COLUMNS}`,
    )
    .bind(changes.name ?? null, changes.name !== undefined ? 1 : 0, limits ?? null, limits !== undefined ? 1 : 0, id, accountId)
    .first<ListedRow>();
  return row ? listedKey(row) : null;
}

function listedKey(row: ListedRow): ApiKey {
  return {
    id: row.id,
    account_id: row.account_id,
    name: row.name,
    prefix: keyPrefix(row.id),
    permissions: parsePermissions(row.permissions),
    limits: parseLimits(row.limits),
    created_at: row.created_at,
    expires_at: row.expires_at,
    last_used_at: row.last_used_at,
  };
}

/** Whether `id` is a live (not revoked) key of `accountId` (of any account when null). */
export async function liveKeyExists(db: D1Database, id: string, accountId: string | null): Promise<boolean> {
  const statement = accountId
    ? db.prepare('SELECT 1 FROM api_keys WHERE id = ? AND account_id = ? AND revoked_at IS NULL').bind(id, accountId)
    : db.prepare('SELECT 1 FROM api_keys WHERE id = ? AND revoked_at IS NULL').bind(id);
  return (await statement.first()) !== null;
}

/** Revokes a key of `accountId` (any account's when null). Returns the revocation time, or null when no such live key. */
export async function revokeKey(db: D1Database, id: string, accountId: string | null, now = new Date()): Promise<string | null> {
  const revokedAt = now.toISOString();
  const result = accountId
    ? await db
        .prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL')
        .bind(revokedAt, id, accountId)
        .run()
    : await db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').bind(revokedAt, id).run();
  return result.meta.changes > 0 ? revokedAt : null;
}
