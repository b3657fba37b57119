import { agentDetailSchema } from '../../../../schemas/registry.ts';
import { registryFetch } from '../discovery/registry-fetch.ts';
import type { Mention } from './addressing.ts';
import type { RegistryAccess } from './registry-access.ts';
import { bareTarget, type Target, targetOf } from './target.ts';

export type Resolution = { ok: true; target: Target } | { ok: false; reason: 'unknown_handle' | 'registry_error' };

type Lookup = { found: Target } | { missing: true } | { failed: true };

async function lookUp(env: ChatEnv, token: string, path: string, own: boolean, signal: AbortSignal): Promise<Lookup> {
  const response = await registryFetch(env, token, path, { method: 'GET', signal });
  // 404: no such agent for this key; 401/403: the key may not look (a caller's key without `read`).
  if (response.status === 404 || response.status === 401 || response.status === 403) {
    await response.body?.cancel();
    return { missing: true };
  }
  if (!response.ok) {
    console.error(`chat: registry lookup answered ${response.status}`, (await response.text().catch(() => '')).slice(0, 300));
    return { failed: true };
  }
  const detail = agentDetailSchema.safeParse(await response.json());
  return detail.success ? { found: targetOf(detail.data, own) } : { failed: true };
}

/**
 * The agent a mention names: looked up by the chat agent (what anyone may see), then with the caller's key (its
 * own unlisted agents, when the key may read them). A handle must be known; an address is sent to even when the
 * registry shows nothing of it (unlisted agents are reachable by address).
 */
export async function resolveMention(env: ChatEnv, access: RegistryAccess, mention: Mention, signal: AbortSignal): Promise<Resolution> {
  const path = mention.kind === 'handle' ? `/v2/agents/handles/${mention.handle}` : `/v2/agents/${mention.address}`;
  try {
    // Found only with the caller's key after the chat agent's found nothing: an unlisted agent of the caller's own.
    const keys: [string, boolean][] = [
      [access.agentKey, false],
      [access.callerKey, Boolean(access.agentKey)],
    ];
    let failed = false;
    for (const [token, own] of keys) {
      if (!token) continue;
      const lookup = await lookUp(env, token, path, own, signal);
      if ('found' in lookup) return { ok: true, target: lookup.found };
      if ('failed' in lookup) failed = true;
    }
    if (failed) return { ok: false, reason: 'registry_error' };
    return mention.kind === 'handle' ? { ok: false, reason: 'unknown_handle' } : { ok: true, target: bareTarget(mention.address) };
  } catch (error) {
    if (signal.aborted) throw error;
    console.error('chat: registry lookup failed', error);
    return { ok: false, reason: 'registry_error' };
  }
}
