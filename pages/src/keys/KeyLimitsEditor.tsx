import { createSignal, For, onMount, Show } from 'solid-js';
import type { KeyLimits } from '../../../schemas/keys.ts';
import { LIMIT_FIELDS, limitInput, parseLimits, type LimitField, type LimitInput } from './limits.ts';

/**
 * A key's limits, editable in its row: empty inputs are the defaults. What the user typed is checked before
 * anything is sent; a refusal from the registry (a 400 naming the field, a 404 for a key revoked meanwhile)
 * shows here and leaves the editor open.
 */
export function KeyLimitsEditor(props: {
  limits: KeyLimits | null;
  onSave: (limits: KeyLimits | null) => Promise<void>;
  onCancel: () => void;
}) {
  const initial: Record<LimitField, LimitInput> = {
    requests_per_minute: limitInput(props.limits, 'requests_per_minute'),
    tokens_per_minute: limitInput(props.limits, 'tokens_per_minute'),
  };
  const [inputs, setInputs] = createSignal(initial);
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  let first: HTMLInputElement | undefined;
  onMount(() => first?.focus());

  async function save(event: SubmitEvent) {
    event.preventDefault();
    const parsed = parseLimits(inputs());
    if ('error' in parsed) {
      setError(parsed.error);
      return;
    }
    setBusy(true);
    try {
      await props.onSave(parsed.limits);
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      class="keys-limits-editor"
      noValidate
      onSubmit={(event) => void save(event)}
      onKeyDown={(event) => {
        if (event.key === 'Escape') props.onCancel();
      }}
    >
      <For each={LIMIT_FIELDS}>
        {({ field, label }, index) => (
          <label class="ui-field">
            {label}
            <input
              ref={(element) => {
                if (index() === 0) first = element;
              }}
              class="ui-input keys-limit-input"
              type="number"
              min="1"
              step="1"
              placeholder="default"
              value={initial[field].text}
              onInput={(event) => {
                const { value, validity } = event.currentTarget;
                setInputs({ ...inputs(), [field]: { text: value, bad: validity.badInput } });
                setError(null);
              }}
            />
          </label>
        )}
      </For>
      <Show when={error()}>
        <p class="ui-notice error" role="alert">
          {error()}
        </p>
      </Show>
      <div class="ui-row">
        <button type="submit" class="ui-button" disabled={busy()}>
          {busy() ? 'Saving…' : 'Save'}
        </button>
        <button type="button" class="ui-button secondary" onClick={() => props.onCancel()}>
          Cancel
        </button>
      </div>
    </form>
  );
}
