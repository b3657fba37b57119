import type { SealingVaultContract } from '../../../../lib/rpc-contracts/index.ts';

/**
 * Seeds and secret values are stored sealed by the vault Worker (VAULT), which alone holds the sealing keys: a copy
 * of the database reveals none of them, and neither does this Worker's isolate, which loads tenant code (docs/decisions/0106).
 */
export function vaultOf(env: HostingEnv): Service<SealingVaultContract> {
  return env.VAULT as Service<SealingVaultContract>;
}

export function seal(env: HostingEnv, plain: string): Promise<string> {
  return vaultOf(env).seal(plain);
}

export function open(env: HostingEnv, sealed: string): Promise<string> {
  return vaultOf(env).open(sealed);
}

/** A fresh identity seed: 32 random bytes, hex. */
export function newSeed(): string {
  return [...crypto.getRandomValues(new Uint8Array(32))].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
