import { agentDetailSchema } from '../../../../schemas/registry.ts';
import { registryFetch } from '../discovery/registry-fetch.ts';
import type { Mention } from './addressing.ts';
import { bareTarget, type Target, targetOf } from './target.ts';

export type Resolution = { ok: true; target: Target } | { ok: false; reason: 'unknown_handle' | 'registry_error' };

/**
 * The agent a mention names, as the caller's key sees it in the registry. A handle must be known; an address
 * is sent to even when the registry shows nothing of it (unlisted agents are reachable by address).
 */
export async function resolveMention(env: ChatEnv, token: string, mention: Mention, signal: AbortSignal): Promise<Resolution> {
  const path = mention.kind === 'handle' ? `/v2/agents/handles/${mention.handle}` : `/v2/agents/${mention.address}`;
  try {
    const response = await registryFetch(env, token, path, { method: 'GET', signal });
    if (response.status === 404) {
      await response.body?.cancel();
      if (mention.kind === 'handle') return { ok: false, reason: 'unknown_handle' };
      return { ok: true, target: bareTarget(mention.address) };
    }
    if (!response.ok) {
      console.error(`chat: registry lookup answered ${response.status}`, (await response.text().catch(() => '')).slice(0, 300));
      return { ok: false, reason: 'registry_error' };
    }
    const detail = agentDetailSchema.safeParse(await response.json());
    return detail.success ? { ok: true, target: targetOf(detail.data) } : { ok: false, reason: 'registry_error' };
  } catch (error) {
    console.error('chat: registry lookup failed', error);
    return { ok: false, reason: 'registry_error' };
  }
}
