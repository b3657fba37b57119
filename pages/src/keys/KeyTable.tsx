import { createSignal, For, Show } from 'solid-js';
import type { ApiKey } from '../../../schemas/keys.ts';
import { formatDate } from '../explorer/format.ts';

/** Live keys (never their secrets), each with a two-step revoke. */
export function KeyTable(props: { keys: ApiKey[]; onRevoke: (key: ApiKey) => Promise<void> }) {
  const [confirming, setConfirming] = createSignal<string | null>(null);
  return (
    <Show when={props.keys.length} fallback={<p class="ui-muted">No live keys.</p>}>
      <table class="keys-table">
        <thead>
          <tr>
            <th>Name</th>
            <th>Key</th>
            <th>Permissions</th>
            <th>Created</th>
            <th>Expires</th>
            <th>Last used</th>
            <th />
          </tr>
        </thead>
        <tbody>
          <For each={props.keys}>
            {(key) => (
              <tr data-key-id={key.id}>
                <td>
                  {key.name}
                  <div class="ui-muted ui-mono" title="account">
                    {key.account_id}
                  </div>
                </td>
                <td class="ui-mono">{key.prefix}…</td>
                <td>
                  <For each={key.permissions}>{(permission) => <span class="ui-tag">{permission}</span>}</For>
                </td>
                <td>{formatDate(key.created_at)}</td>
                <td>{key.expires_at ? formatDate(key.expires_at) : 'never'}</td>
                <td>{key.last_used_at ? formatDate(key.last_used_at) : 'never'}</td>
                <td>
                  <Show
                    when={confirming() === key.id}
                    fallback={
                      <button type="button" class="ui-button secondary" onClick={() => setConfirming(key.id)}>
                        Revoke
                      </button>
                    }
                  >
                    <div class="ui-row">
                      <button type="button" class="ui-button danger" onClick={() => void props.onRevoke(key).finally(() => setConfirming(null))}>
                        Confirm revoke
                      </button>
                      <button type="button" class="ui-button secondary" onClick={() => setConfirming(null)}>
                        Cancel
                      </button>
                    </div>
                  </Show>
                </td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
    </Show>
  );
}
