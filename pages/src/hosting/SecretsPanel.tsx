import { createResource, For } from 'solid-js';
import { secrets, setSecret } from '../api/hosting.ts';

/** The agent's secret names (never their values) and a form to set one. */
export function SecretsPanel(props: { token: string; address: string; act: (action: () => Promise<unknown>) => Promise<void> }) {
  const [list, { refetch }] = createResource(
    () => [props.token, props.address] as const,
    ([key, address]) => secrets(key, address),
  );
  let secretName!: HTMLInputElement;
  let secretValue!: HTMLInputElement;
  return (
    <>
      <ul>
        <For each={list() ?? []}>{(secret) => <li class="ui-mono">{secret.name}</li>}</For>
      </ul>
      <form
        class="hosting-create"
        onSubmit={(event) => {
          event.preventDefault();
          void props.act(async () => {
            await setSecret(props.token, props.address, secretName.value.trim(), secretValue.value);
            secretName.value = '';
            secretValue.value = '';
            await refetch();
          });
        }}
      >
        <input class="ui-input ui-mono" ref={secretName} placeholder="NAME" aria-label="Secret name" />
        <input class="ui-input" ref={secretValue} type="password" placeholder="value" aria-label="Secret value" />
        <button class="ui-button secondary" type="submit">
          Set secret
        </button>
      </form>
    </>
  );
}
