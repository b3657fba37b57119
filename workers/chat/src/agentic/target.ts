import type { AgentManifest, StepAgent } from '../../../../schemas/chat.ts';
import { toManifest } from '../discovery/discover.ts';
import type { FoundAgent } from '../discovery/search.ts';
import { type Evidence, evidenceOf } from './trust.ts';

/** An agent the completion may talk to: who it is (for the steps), what it does (`executable_data`), what vouches for it. */
export interface Target {
  agent: StepAgent;
  manifest: AgentManifest;
  /** The registry's evidence about it; null for an agent the user named that the registry shows nothing of. */
  evidence: Evidence | null;
}

export function targetOf(found: FoundAgent, own = false): Target {
  return {
    agent: { address: found.address, name: found.name, handle: found.handle },
    manifest: toManifest(found),
    evidence: evidenceOf(found, own),
  };
}

/** An address the registry shows nothing of (unlisted, or never registered): reachable, undescribed. */
export function bareTarget(address: string): Target {
  return {
    agent: { address, name: address, handle: null },
    manifest: { type: 'agent_manifest', address, name: address, status: 'unknown', description: '', use_cases: [], accepts: [], tags: [] },
    evidence: null,
  };
}
