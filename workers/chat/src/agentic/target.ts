import type { AgentManifest, StepAgent } from '../../../../schemas/chat.ts';
import { toManifest } from '../discovery/discover.ts';
import type { FoundAgent } from '../discovery/search.ts';

/** An agent the completion may talk to: who it is (for the steps) and what it does (for `executable_data`). */
export interface Target {
  agent: StepAgent;
  manifest: AgentManifest;
}

export function targetOf(found: FoundAgent): Target {
  return { agent: { address: found.address, name: found.name, handle: found.handle }, manifest: toManifest(found) };
}

/** An address the registry shows nothing of (unlisted, or never registered): reachable, undescribed. */
export function bareTarget(address: string): Target {
  return {
    agent: { address, name: address, handle: null },
    manifest: { type: 'agent_manifest', address, name: address, status: 'unknown', description: '', use_cases: [], accepts: [], tags: [] },
  };
}
