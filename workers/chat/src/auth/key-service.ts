import type { KeyLimits } from '../../../../schemas/keys.ts';

/**
 * The registry's `KeyService` entrypoint as the chat Worker calls it over the REGISTRY service binding
 * (RPC). Keys live in the registry alone; the chat Worker keeps a verified key only in that key's KeyMeter,
 * which the registry tells before it revokes the key (auth/key-revocations.ts).
 */
export type KeyCheck =
  | { ok: true; keyId: string; accountId: string; limits?: KeyLimits | null; expiresAt?: string | null }
  | { ok: false; status: 401 | 403; message: string };

export interface KeyService {
  authenticate(token: string, permission: 'read' | 'write' | 'chat'): Promise<KeyCheck>;
}
