import { For, Match, Show, Switch } from 'solid-js';
import type { IntermediateStep, StepAgent } from '../../../schemas/chat.ts';
import { agentPageHash } from '../explorer/agent-link.ts';

/** What each kind of step is called in the list. */
const LABELS: Record<IntermediateStep['step'], string> = {
  search: 'Searched',
  choose: 'Chose',
  sent: 'Sent',
  acknowledged: 'Acknowledged',
  answered: 'Answered',
  timed_out: 'Timed out',
  unreachable: 'Unreachable',
  failed: 'Failed',
};

/** An agent named in a step, linking to its page in the explorer. */
function AgentLink(props: { agent: StepAgent }) {
  return (
    <a class="playground-step-agent" href={agentPageHash(props.agent.address)} title={props.agent.address}>
      {props.agent.name}
      <Show when={props.agent.handle}>{(handle) => <span class="ui-muted"> @{handle()}</span>}</Show>
    </a>
  );
}

/**
 * The work behind an agentic answer, step by step as it streams in: the search, the agent chosen and why,
 * the message sent, the acknowledgement, the answer or why there was none. Agents' own words (`text` of
 * `sent` and `answered`) are shown as plain text.
 */
export function AgentSteps(props: { steps: IntermediateStep[]; working: boolean }) {
  const agentOf = (step: IntermediateStep): StepAgent | null => ('agent' in step ? step.agent : null);
  return (
    <Show when={props.steps.length || props.working}>
      <ol class="playground-steps" aria-label="Agent steps">
        <For each={props.steps}>
          {(step) => (
            <li class="playground-step" data-step={step.step}>
              <span class="playground-step-kind">{LABELS[step.step]}</span>
              <Show when={agentOf(step)}>{(agent) => <AgentLink agent={agent()} />}</Show>
              <Switch fallback={<span class="playground-step-text">{step.text}</span>}>
                <Match when={step.step === 'choose' && step}>
                  {(choose) => <span class="playground-step-text">{choose().agent ? `because ${choose().reason}` : choose().text}</span>}
                </Match>
                <Match when={step.step === 'answered' && step}>
                  {(answered) => (
                    <span class="playground-step-text">
                      {answered().late ? '(a late answer to an earlier message) ' : ''}
                      {answered().text}
                    </span>
                  )}
                </Match>
              </Switch>
            </li>
          )}
        </For>
        <Show when={props.working}>
          <li class="playground-step ui-muted" data-step="working">
            Working…
          </li>
        </Show>
      </ol>
    </Show>
  );
}
