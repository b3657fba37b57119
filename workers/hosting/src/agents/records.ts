import type { HostedAgent, HostedAgentSummary } from '../../../../schemas/hosting.ts';

/** A hosted_agents row as D1 returns it. */
export interface AgentRow {
  address: string;
  account_id: string;
  name: string;
  readme: string | null;
  short_description: string | null;
  avatar_url: string | null;
  network: string;
  sealed_seed: string;
  code: string | null;
  code_digest: string | null;
  code_update_timestamp: string | null;
  revision: number;
  compiled: number | null;
  running: number;
  creation_timestamp: string;
}

/** The one mapper from a stored row to the list item (AgentSummaryV1). */
export function toSummary(row: AgentRow): HostedAgentSummary {
  return {
    name: row.name,
    address: row.address,
    running: row.running === 1,
    domain: null,
    prefix: row.network === 'mainnet' ? 'agent' : 'test-agent',
    compiled: row.compiled === null ? null : row.compiled === 1,
    // Agentverse: null until the code compiled.
    code_digest: row.compiled === 1 ? row.code_digest : null,
    wallet_address: null,
    code_update_timestamp: row.code_update_timestamp,
    creation_timestamp: row.creation_timestamp,
    avatar_url: row.avatar_url,
  };
}

/** The one mapper from a stored row to the full record (AgentV1). */
export function toAgent(row: AgentRow): HostedAgent {
  return {
    ...toSummary(row),
    revision: row.revision,
    maintainer_id: row.account_id,
    readme: row.readme,
    short_description: row.short_description,
    metadata: null,
  };
}
