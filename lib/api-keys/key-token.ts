import { equalBytes } from '@noble/curves/utils.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes, randomBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { base64urlnopad } from '@scure/base';

/**
 * API key tokens: `rdv_<id>_<secret>`, `id` 16 hex digits (finds the row), `secret` 32 random bytes in
 * base64url. Only sha256(secret) is stored: a 256-bit random secret needs no slow hash.
 */
const KEY_TOKEN_PREFIX = 'rdv_';
const TOKEN_PATTERN = /^rdv_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

/** Whether text is shaped like a key id (the `<id>` of a token). */
export const isKeyId = (text: string) => /^[0-9a-f]{16}$/.test(text);

export interface NewKeyToken {
  id: string;
  token: string;
  secretHash: string;
}

export function newKeyToken(): NewKeyToken {
  const id = bytesToHex(randomBytes(8));
  const secret = base64urlnopad.encode(randomBytes(32));
  return { id, token: `${KEY_TOKEN_PREFIX}${id}_${secret}`, secretHash: hashSecret(secret) };
}

export function parseKeyToken(token: string): { id: string; secret: string } | null {
  const match = TOKEN_PATTERN.exec(token);
  return match ? { id: match[1]!, secret: match[2]! } : null;
}

export function hashSecret(secret: string): string {
  return bytesToHex(sha256(utf8ToBytes(secret)));
}

/** Constant-time check of a secret against its stored hash. */
export function secretMatches(secret: string, storedHashHex: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(storedHashHex)) return false;
  return equalBytes(sha256(utf8ToBytes(secret)), hexToBytes(storedHashHex));
}

/** Constant-time equality of two strings of any length (hashing first fixes the length compared). */
export function sameSecret(given: string, expected: string): boolean {
  return equalBytes(sha256(utf8ToBytes(given)), sha256(utf8ToBytes(expected)));
}

/** The visible start of a key, shown in listings so a user can tell keys apart. */
export function keyPrefix(id: string): string {
  return `${KEY_TOKEN_PREFIX}${id}`;
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | undefined | null): string | null {
  return /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1] ?? null;
}
