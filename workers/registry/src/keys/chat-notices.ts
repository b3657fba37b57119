/** The chat Worker's `KeyRevocations` entrypoint, as the registry calls it over the CHAT_KEYS service binding. */
interface KeyRevocations {
  /** True once the chat Worker has stored the revocation. */
  revoke(keyId: string): Promise<boolean>;
  /** True once the chat Worker has dropped what it cached of the key, so it reads the key anew. */
  forget(keyId: string): Promise<boolean>;
}

/**
 * Tells the chat Worker a key is about to be revoked, so the verdict it caches per key is dropped and the key
 * refused there from now on. True when told, or when this deployment has no chat Worker bound (nothing is
 * cached anywhere); false when it could not be told, and then the key must not be reported revoked.
 */
export async function noticeRevocation(env: RegistryEnv, keyId: string): Promise<boolean> {
  // Optional although declared: a registry deployed without the chat Worker leaves the binding out.
  const chat = env.CHAT_KEYS as unknown as KeyRevocations | undefined;
  if (!chat) return true;
  try {
    if (await chat.revoke(keyId)) return true;
    console.error(`the chat Worker did not confirm the revocation of key ${keyId}`);
    return false;
  } catch (error) {
    console.error('revocation not delivered to the chat Worker', error);
    return false;
  }
}

/**
 * Tells the chat Worker a key just changed (its limits), so its cached verdict is dropped and the next chat
 * request reads the key anew. False when it could not be told: the change then reaches chat when the cached
 * verdict expires (verified-key.ts, within 5 minutes).
 */
export async function noticeKeyChange(env: RegistryEnv, keyId: string): Promise<boolean> {
  const chat = env.CHAT_KEYS as unknown as KeyRevocations | undefined;
  if (!chat) return true;
  try {
    return await chat.forget(keyId);
  } catch (error) {
    console.error('key change not delivered to the chat Worker', error);
    return false;
  }
}
