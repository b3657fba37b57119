import { WorkerEntrypoint } from 'cloudflare:workers';
import { healthBody } from '../../../lib/http/health.ts';
import type { SealingVaultContract } from '../../../lib/rpc-contracts/sealing-vault.ts';
import { parseKeys, type SealingKey } from './keys.ts';
import { open, prefixOf, seal } from './sealing.ts';

/** Parsed once per isolate and setting (a new secret deploys a new isolate). */
let parsed: { setting: string | undefined; keys: SealingKey[] } | undefined;

function keysOf(env: VaultEnv): SealingKey[] {
  if (parsed?.setting !== env.HOSTING_SEED_KEYS) parsed = { setting: env.HOSTING_SEED_KEYS, keys: parseKeys(env.HOSTING_SEED_KEYS) };
  return parsed.keys;
}

/** The hosting Worker's vault (SealingVaultContract): the first key seals, every key opens what it sealed. */
export class SealingVault extends WorkerEntrypoint<VaultEnv> implements SealingVaultContract {
  async seal(plain: string): Promise<string> {
    if (typeof plain !== 'string') throw new TypeError('only text is sealed');
    return seal(keysOf(this.env)[0]!, plain);
  }

  async open(sealed: string): Promise<string> {
    if (typeof sealed !== 'string') throw new TypeError('only sealed text opens');
    return open(keysOf(this.env), sealed);
  }

  async sealWithCurrent(sealed: string): Promise<string> {
    const current = keysOf(this.env)[0]!;
    if (typeof sealed === 'string' && sealed.startsWith(prefixOf(current))) return sealed;
    return seal(current, await this.open(sealed));
  }

  async currentPrefix(): Promise<string> {
    return prefixOf(keysOf(this.env)[0]!);
  }
}

/** No routes: a health answer for the local stack's readiness check, nothing else. */
export default {
  fetch(request) {
    if (new URL(request.url).pathname === '/health') return Response.json(healthBody('hosting-vault'));
    return Response.json({ detail: 'Not Found' }, { status: 404 });
  },
} satisfies ExportedHandler<VaultEnv>;
