import { For, Show } from 'solid-js';

export type PlaygroundMode = 'chat' | 'agents';

/** Chat or Agents mode (each switch starts a new chat), what Agents mode does here, and the New chat button. */
export function ModeSwitch(props: {
  mode: PlaygroundMode;
  onMode: (mode: PlaygroundMode) => void;
  agenticModel: string;
  agenticServed: boolean;
  streaming: boolean;
  hasTurns: boolean;
  onNewChat: () => void;
}) {
  return (
    <div class="ui-row playground-settings">
      <fieldset class="playground-mode">
        <legend class="ui-muted">Mode</legend>
        <For each={['chat', 'agents'] as const}>
          {(value) => (
            <label class="playground-check">
              <input
                type="radio"
                name="playground-mode"
                value={value}
                checked={props.mode === value}
                disabled={props.streaming}
                onChange={() => props.onMode(value)}
              />
              {value === 'chat' ? 'Chat' : 'Agents'}
            </label>
          )}
        </For>
      </fieldset>
      <Show when={props.mode === 'agents'}>
        <p class="ui-muted playground-mode-note">
          <Show
            when={props.agenticServed}
            fallback={`This deployment does not serve ${props.agenticModel}: Agents mode needs the chat endpoint's agent.`}
          >
            {props.agenticModel} finds the agent for your question (or the one you name with @handle), sends it your message and answers
            with its reply.
          </Show>
        </p>
      </Show>
      <Show when={props.hasTurns}>
        <button type="button" class="ui-button secondary" disabled={props.streaming} onClick={() => props.onNewChat()}>
          New chat
        </button>
      </Show>
    </div>
  );
}
