import type { CandidateFailure } from './candidates.ts';

/**
 * What the user is told when no agent could be searched for: what happened, and whether trying again can help.
 * A refusal of the chat agent's own key is the deployment's fault, never the caller's, and never "temporary".
 */
export function searchFailureText(failure: CandidateFailure): string {
  switch (failure.kind) {
    case 'no_agent_key':
      return (
        'No agent was asked: this deployment’s chat agent has no registry key of its own (CHAT_AGENT_REGISTRY_KEY), so it cannot ' +
        'search for agents. Trying again will not help until the operator sets it.'
      );
    case 'refused':
      return (
        `No agent was asked: the registry refused the chat agent’s own key (HTTP ${failure.status}). This is a problem of this ` +
        'deployment, not of your key, and trying again will not help until the operator fixes it.'
      );
    case 'rate_limited':
      return `No agent was asked: the registry is limiting searches right now (HTTP 429). Try again in ${failure.retryAfter ?? 60} s.`;
    case 'unavailable':
      return `No agent was asked: the registry ${failure.status ? `failed (HTTP ${failure.status})` : 'could not be reached'}. This is usually passing: try again in a moment.`;
    case 'malformed':
      return (
        `No agent was asked: the registry answered the search with something that is not a search result${failure.status ? ` (HTTP ${failure.status})` : ''}. ` +
        'Trying again is unlikely to help; the operator should check the registry.'
      );
  }
}
