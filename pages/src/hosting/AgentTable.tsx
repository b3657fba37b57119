import { For } from 'solid-js';
import type { HostedAgentSummary } from '../../../schemas/hosting.ts';

/** The account's hosted agents; a click anywhere on a row opens one, and its name is a button, for the keyboard. */
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
              <td>
                {/* No handler of its own: Enter on it clicks, and the click reaches the row's. */}
                <button type="button" class="hosting-open">
                  {item.name}
                </button>
              </td>
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
