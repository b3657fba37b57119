/**
 * The hosting vault's `SealingVault` entrypoint: it seals and opens hosted agents' seeds and secret values, so
 * the sealing keys never sit in the hosting Worker, whose isolate loads tenant code (docs/decisions/0106).
 * Sealed text: `v2.<key id>.<base64(iv ‖ AES-GCM ciphertext)>`; text without the prefix was sealed before the
 * vault, with the key named `v1`.
 */
export interface SealingVaultContract extends Rpc.WorkerEntrypointBranded {
  seal(plain: string): Promise<string>;
  /** Throws when the text is not sealed text, or its key is not among the vault's keys. */
  open(sealed: string): Promise<string>;
  /** The same value sealed under the current key; the text itself when it already is. */
  sealWithCurrent(sealed: string): Promise<string>;
  /** Sealed text that starts with this prefix is under the current key. */
  currentPrefix(): Promise<string>;
}
