import { type Accessor, For, type Setter } from 'solid-js';
import type { ModelInfo } from '../api/chat.ts';
import { NumberField } from '../styles/NumberField.tsx';

/** Chat mode's settings: the served model, its temperature and token limit, and whether to discover agents. */
export interface ChatSettings {
  model: Accessor<string>;
  setModel: Setter<string>;
  temperature: Accessor<number>;
  setTemperature: Setter<number>;
  maxTokens: Accessor<string>;
  setMaxTokens: Setter<string>;
  discovery: Accessor<boolean>;
  setDiscovery: Setter<boolean>;
}

export function ModelSettings(props: { models: ModelInfo[]; settings: ChatSettings }) {
  const settings = () => props.settings;
  return (
    <div class="ui-row playground-settings">
      <label class="ui-field">
        Model
        <select
          class="ui-select"
          aria-label="Model"
          value={settings().model()}
          onChange={(event) => settings().setModel(event.currentTarget.value)}
        >
          <For each={props.models}>
            {(m) => (
              <option value={m.id} disabled={!m.available}>
                {m.id} ({m.provider}
                {m.available ? '' : ', unavailable'})
              </option>
            )}
          </For>
        </select>
      </label>
      <label class="ui-field">
        Temperature {settings().temperature().toFixed(1)}
        <input
          type="range"
          min="0"
          max="2"
          step="0.1"
          value={settings().temperature()}
          onInput={(event) => settings().setTemperature(Number(event.currentTarget.value))}
        />
      </label>
      <NumberField
        label="Max tokens"
        class="playground-number"
        placeholder="default"
        value={settings().maxTokens()}
        onInput={(value) => settings().setMaxTokens(value)}
      />
      <label class="playground-check">
        <input
          type="checkbox"
          checked={settings().discovery()}
          onChange={(event) => settings().setDiscovery(event.currentTarget.checked)}
        />
        Discover agents
      </label>
    </div>
  );
}
