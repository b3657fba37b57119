import { createAttestation } from '../registry-client/index.ts';
import type { BoundAgent } from './bound.ts';

/**
 * Reports a delivered message to the registry as uagents-core does (`record_agent_interaction`): the
 * sender's signed attestation in `Authorization: Agent attr:…`. Best effort: a failure is logged.
 */
export async function reportInteraction<Env>(agent: BoundAgent<Env>, target: string, session: string): Promise<void> {
  if (agent.settings.reportInteractions === false) return;
  const url = `${agent.settings.registryUrl.replace(/\/+$/, '')}/v2/agents/interactions`;
  try {
    const response = await agent.fetch(url, {
      method: 'POST',
      headers: { authorization: `Agent ${createAttestation(agent.identity)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ target, session_id: session, source: agent.identity.address }),
    });
    if (!response.ok)
      console.warn(
        `agent ${agent.definition.name}: interaction report answered ${response.status}: ${(await response.text()).slice(0, 200)}`,
      );
    else await response.body?.cancel();
  } catch (error) {
    console.warn(`agent ${agent.definition.name}: interaction report failed: ${(error as Error).message}`);
  }
}
