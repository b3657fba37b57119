import { For, Show } from 'solid-js';
import type { AgentManifest, IntermediateStep } from '../../../schemas/chat.ts';

/** Agents that agent discovery found for this turn (`executable_data`), and how they were chosen. */
export function DiscoveredAgents(props: { agents: AgentManifest[]; steps: IntermediateStep[] }) {
  const choice = () => props.steps.find((step) => step.step === 'choose');
  return (
    <Show when={props.agents.length || props.steps.length}>
      <div class="playground-agents">
        <p class="ui-muted">
          Discovered agents <Show when={choice()}>{(step) => <span>— {step().step === 'choose' ? step().reason : ''}</span>}</Show>
        </p>
        <Show when={props.agents.length} fallback={<p class="ui-muted">No agent fits this conversation.</p>}>
          <ul>
            <For each={props.agents}>
              {(agent) => (
                <li class="playground-agent">
                  <strong>{agent.name}</strong>{' '}
                  <span class="ui-status" data-status={agent.status}>
                    {agent.status}
                  </span>
                  <div class="ui-mono ui-muted">{agent.address}</div>
                  <Show when={agent.description}>
                    <p>{agent.description}</p>
                  </Show>
                  <Show when={agent.accepts.length}>
                    <p class="ui-muted">
                      Accepts:{' '}
                      <For each={agent.accepts}>
                        {(accepted, index) => (
                          <>
                            {index() > 0 ? ', ' : ''}
                            <code>{accepted.parameter}</code>
                          </>
                        )}
                      </For>
                    </p>
                  </Show>
                </li>
              )}
            </For>
          </ul>
        </Show>
      </div>
    </Show>
  );
}
