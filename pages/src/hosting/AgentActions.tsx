import { For } from 'solid-js';

type Lifecycle = 'start' | 'stop' | 'restart';

const LIFECYCLE: [Lifecycle, string][] = [
  ['start', 'Start'],
  ['stop', 'Stop'],
  ['restart', 'Restart'],
];

/** Save the code; start, stop or restart the agent. */
export function AgentActions(props: { onSave: () => void; onLifecycle: (action: Lifecycle) => void }) {
  return (
    <div class="hosting-actions">
      <button class="ui-button" type="button" onClick={() => props.onSave()}>
        Save
      </button>
      <For each={LIFECYCLE}>
        {([action, label]) => (
          <button class="ui-button secondary" type="button" onClick={() => props.onLifecycle(action)}>
            {label}
          </button>
        )}
      </For>
    </div>
  );
}
