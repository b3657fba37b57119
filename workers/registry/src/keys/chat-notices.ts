import type { KeyRevocationsContract } from '../../../../lib/rpc-contracts/index.ts';
import type { RegistryBindings } from '../app.ts';

/**
 * Tells the chat Worker a key is about to be revoked, so the verdict it caches per key is dropped and the key
 * refused there from now on. True when told, or when this deployment has no chat Worker bound (nothing is
 * cached anywhere); false when it could not be told, and then the key must not be reported revoked.
 */
export function noticeRevocation(env: RegistryBindings, keyId: string): Promise<boolean> {
  return tellChat(env, `the revocation of key ${keyId}`, (chat) => chat.revoke(keyId));
}

/**
 * Tells the chat Worker a key just changed (its limits), so its cached verdict is dropped and the next chat
 * request reads the key anew. False when it could not be told: the change then reaches chat when the cached
 * verdict expires (verified-key.ts, within 5 minutes).
 */
export function noticeKeyChange(env: RegistryBindings, keyId: string): Promise<boolean> {
  return tellChat(env, `the change to key ${keyId}`, (chat) => chat.forget(keyId));
}

/** One notice over CHAT_KEYS: true when the chat Worker confirmed it, or when no chat Worker is bound. */
type ChatKeys = Service<KeyRevocationsContract>;

async function tellChat(env: RegistryBindings, what: string, notice: (chat: ChatKeys) => Promise<boolean>): Promise<boolean> {
  // Optional although declared: a registry deployed without the chat Worker leaves the binding out.
  const chat: ChatKeys | undefined = env.CHAT_KEYS;
  if (!chat) return true;
  try {
    if (await notice(chat)) return true;
    console.error(`the chat Worker did not confirm ${what}`);
    return false;
  } catch (error) {
    console.error(`${what} was not delivered to the chat Worker`, error);
    return false;
  }
}
