import { createSignal, Show } from 'solid-js';
import { credential, type CredentialName } from '../api/credentials.ts';
import '../styles/controls.css';

/** Where the user types a secret; it is kept in this tab's sessionStorage only. */
export function KeyField(props: { name: CredentialName; label: string; hint: string }) {
  const [value, setValue] = credential(props.name);
  const [shown, setShown] = createSignal(false);
  return (
    <div class="ui-key-field">
      <label class="ui-field">
        {props.label}
        <input
          class="ui-input ui-mono"
          type={shown() ? 'text' : 'password'}
          autocomplete="off"
          spellcheck={false}
          placeholder={props.hint}
          value={value()}
          onChange={(event) => setValue(event.currentTarget.value)}
        />
      </label>
      <button type="button" class="ui-button secondary" onClick={() => setShown(!shown())}>
        {shown() ? 'Hide' : 'Show'}
      </button>
      <Show when={value()}>
        <button type="button" class="ui-button secondary" onClick={() => setValue('')}>
          Forget
        </button>
      </Show>
    </div>
  );
}
