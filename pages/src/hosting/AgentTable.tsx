import { For } from 'solid-js';
import type { HostedAgentSummary } from '../../../schemas/hosting.ts';

/** The account's hosted agents; a click opens one. */
export function AgentTable(props: { agents: HostedAgentSummary[]; selected: string | null; onOpen: (address: string) => void }) {
  return (
    <table class="hosting-list">
      <thead>
        <tr>
          <th>Name</th>
          <th>Address</th>
          <th>Running</th>
          <th>Compiled</th>
        </tr>
      </thead>
      <tbody>
        <For each={props.agents}>
          {(item) => (
            <tr aria-selected={props.selected === item.address} onClick={() => props.onOpen(item.address)}>
              <td>{item.name}</td>
              <td class="ui-mono">{item.address.slice(0, 18)}…</td>
              <td>{item.running ? 'running' : 'stopped'}</td>
              <td>{item.compiled === null ? '—' : item.compiled ? 'yes' : 'failed'}</td>
            </tr>
          )}
        </For>
      </tbody>
    </table>
  );
}
