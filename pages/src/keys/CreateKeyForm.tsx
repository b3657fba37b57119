import { createSignal, For, Show } from 'solid-js';
import { PERMISSIONS, type CreatedKey, type CreateKeyRequest, type Permission } from '../../../schemas/keys.ts';
import { createKey } from '../api/registry.ts';
import { NumberField } from '../styles/NumberField.tsx';

const PERMISSION_HELP: Record<Permission, string> = {
  read: 'search agents and read their records',
  write: 'register, update and delete agents',
  chat: 'chat completions',
  keys: 'create, list and revoke this account’s keys',
  hosting: 'create, edit and run hosted agents',
};

const optionalInt = (text: string) => (text.trim() === '' ? null : Math.floor(Number(text)));

/** Creates a key with the chosen permissions and limits; the secret comes back once, to `onCreated`. */
export function CreateKeyForm(props: { token: string; onCreated: (key: CreatedKey) => void }) {
  const [name, setName] = createSignal('');
  const [permissions, setPermissions] = createSignal<Permission[]>(['read', 'chat']);
  const [expiresInDays, setExpiresInDays] = createSignal('');
  const [rpm, setRpm] = createSignal('');
  const [accountId, setAccountId] = createSignal('');
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);

  const toggle = (permission: Permission, on: boolean) =>
    setPermissions(
      on ? PERMISSIONS.filter((p) => p === permission || permissions().includes(p)) : permissions().filter((p) => p !== permission),
    );

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    const request: CreateKeyRequest = {
      name: name().trim(),
      permissions: permissions(),
      expires_in_days: optionalInt(expiresInDays()),
      limits: optionalInt(rpm()) ? { requests_per_minute: optionalInt(rpm()) } : null,
      ...(accountId().trim() ? { account_id: accountId().trim() } : {}),
    };
    setBusy(true);
    try {
      props.onCreated(await createKey(props.token, request));
      setName('');
      setError(null);
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form class="ui-panel keys-create" onSubmit={(event) => void submit(event)}>
      <h2>Create a key</h2>
      <div class="ui-row">
        <label class="ui-field keys-name">
          Name
          <input
            class="ui-input"
            required
            maxLength={100}
            placeholder="e.g. my weather agent"
            value={name()}
            onInput={(event) => setName(event.currentTarget.value)}
          />
        </label>
        <NumberField
          label="Expires after (days)"
          class="keys-number"
          max="3650"
          placeholder="never"
          value={expiresInDays()}
          onInput={setExpiresInDays}
        />
        <NumberField label="Requests / minute" class="keys-number" placeholder="default" value={rpm()} onInput={setRpm} />
      </div>
      <fieldset class="keys-permissions">
        <legend>Permissions</legend>
        <For each={PERMISSIONS}>
          {(permission) => (
            <label>
              <input
                type="checkbox"
                name={permission}
                checked={permissions().includes(permission)}
                onChange={(event) => toggle(permission, event.currentTarget.checked)}
              />
              <strong>{permission}</strong> <span class="ui-muted">{PERMISSION_HELP[permission]}</span>
            </label>
          )}
        </For>
      </fieldset>
      <details>
        <summary class="ui-muted">Admin: account</summary>
        <label class="ui-field">
          Account id (with the admin token; empty creates a new account — a key with the keys permission always creates in its own)
          <input class="ui-input ui-mono" value={accountId()} onInput={(event) => setAccountId(event.currentTarget.value)} />
        </label>
      </details>
      <Show when={error()}>
        <p class="ui-notice error" role="alert">
          {error()}
        </p>
      </Show>
      <button type="submit" class="ui-button" disabled={busy() || !name().trim() || permissions().length === 0}>
        {busy() ? 'Creating…' : 'Create key'}
      </button>
    </form>
  );
}
