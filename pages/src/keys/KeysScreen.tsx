import { createResource, createSignal, Show } from 'solid-js';
import type { ApiKey, CreatedKey, KeyLimits } from '../../../schemas/keys.ts';
import { credential } from '../api/credentials.ts';
import { listKeys, revokeKey, updateKey } from '../api/registry.ts';
import { CreateKeyForm } from './CreateKeyForm.tsx';
import { KeyField } from './KeyField.tsx';
import { KeyTable } from './KeyTable.tsx';
import { NewKeyNotice } from './NewKeyNotice.tsx';
import '../styles/controls.css';
import './keys.css';

/**
 * The account's API keys, through the registry's key API (/v1/keys). The first key of an account is made
 * with the deployment's admin token; after that a key with the `keys` permission manages its own account.
 */
export function KeysScreen() {
  const [token] = credential('managerToken');
  const [created, setCreated] = createSignal<CreatedKey | null>(null);
  const [actionError, setActionError] = createSignal<string | null>(null);
  const [keys, { mutate, refetch }] = createResource(token, (value) => (value ? listKeys(value) : Promise.resolve<ApiKey[]>([])));

  async function revoke(key: ApiKey) {
    try {
      await revokeKey(token(), key.id);
      setActionError(null);
    } catch (error) {
      setActionError((error as Error).message);
    }
    await refetch();
  }

  /** Sends the new limits; the row then shows the key as the registry answered it. A refusal is thrown to the row's editor. */
  async function updateLimits(key: ApiKey, limits: KeyLimits | null) {
    const updated = await updateKey(token(), key.id, { limits });
    mutate((list) => list?.map((listed) => (listed.id === updated.id ? updated : listed)));
  }

  return (
    <section class="keys">
      <KeyField
        name="managerToken"
        label="Admin token, or a key with the keys permission"
        hint="ADMIN_TOKEN from the registry's secrets, or rdv_…"
      />
      <Show
        when={token()}
        fallback={<p class="ui-notice">Enter the admin token (it makes an account’s first key) or a key that may manage keys.</p>}
      >
        <Show when={created()}>{(key) => <NewKeyNotice created={key()} onDismiss={() => setCreated(null)} />}</Show>
        <CreateKeyForm
          token={token()}
          onCreated={(key) => {
            setCreated(key);
            void refetch();
          }}
        />
        <div class="ui-panel">
          <h2>Live keys</h2>
          <Show when={actionError()}>
            <p class="ui-notice error" role="alert">
              {actionError()}
            </p>
          </Show>
          <Show
            when={!keys.error}
            fallback={
              <p class="ui-notice error" role="alert">
                Cannot list keys: {(keys.error as Error).message}
              </p>
            }
          >
            <Show when={keys()} fallback={<p class="ui-muted">Loading…</p>}>
              {(list) => <KeyTable keys={list()} onRevoke={revoke} onUpdateLimits={updateLimits} />}
            </Show>
          </Show>
        </div>
      </Show>
    </section>
  );
}
