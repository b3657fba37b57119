import { createSignal, For, Show } from 'solid-js';
import type { ApiKey, KeyLimits } from '../../../schemas/keys.ts';
import { formatDate } from '../explorer/format.ts';
import { KeyLimitsEditor } from './KeyLimitsEditor.tsx';
import { LIMIT_FIELDS, limitText } from './limits.ts';

/** Live keys (never their secrets), each with its limits (editable in the row) and a two-step revoke. */
export function KeyTable(props: {
  keys: ApiKey[];
  onRevoke: (key: ApiKey) => Promise<void>;
  onUpdateLimits: (key: ApiKey, limits: KeyLimits | null) => Promise<void>;
}) {
  const [confirming, setConfirming] = createSignal<string | null>(null);
  const [editing, setEditing] = createSignal<string | null>(null);
  return (
    <Show when={props.keys.length} fallback={<p class="ui-muted">No live keys.</p>}>
      <table class="keys-table">
        <thead>
          <tr>
            <th>Name</th>
            <th>Key</th>
            <th>Permissions</th>
            <th>Limits</th>
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
                <td class="keys-limits">
                  <Show
                    when={editing() === key.id}
                    fallback={
                      <For each={LIMIT_FIELDS}>
                        {({ field, short }) => (
                          <div>
                            <span data-limit={field}>{limitText(key.limits, field)}</span> <span class="ui-muted">{short}</span>
                          </div>
                        )}
                      </For>
                    }
                  >
                    <KeyLimitsEditor
                      limits={key.limits}
                      onSave={async (limits) => {
                        await props.onUpdateLimits(key, limits);
                        setEditing(null);
                      }}
                      onCancel={() => setEditing(null)}
                    />
                  </Show>
                </td>
                <td>{formatDate(key.created_at)}</td>
                <td>{key.expires_at ? formatDate(key.expires_at) : 'never'}</td>
                <td>{key.last_used_at ? formatDate(key.last_used_at) : 'never'}</td>
                <td>
                  <div class="keys-actions">
                    <Show when={editing() !== key.id}>
                      <button type="button" class="ui-button secondary" onClick={() => setEditing(key.id)}>
                        Edit limits
                      </button>
                    </Show>
                    <Show
                      when={confirming() === key.id}
                      fallback={
                        <button type="button" class="ui-button secondary" onClick={() => setConfirming(key.id)}>
                          Revoke
                        </button>
                      }
                    >
                      <div class="ui-row">
                        <button
                          type="button"
                          class="ui-button danger"
                          onClick={() => void props.onRevoke(key).finally(() => setConfirming(null))}
                        >
                          Confirm revoke
                        </button>
                        <button type="button" class="ui-button secondary" onClick={() => setConfirming(null)}>
                          Cancel
                        </button>
                      </div>
                    </Show>
                  </div>
                </td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
    </Show>
  );
}
