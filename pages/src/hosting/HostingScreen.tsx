import { createResource, createSignal, For, onCleanup, Show } from 'solid-js';
import type { HostedAgentSummary } from '../../../schemas/hosting.ts';
import { credential } from '../api/credentials.ts';
import {
  createHosted,
  getCode,
  getHosted,
  latestLogs,
  lifecycle,
  listHosted,
  saveCode,
  secrets,
  setSecret,
  storage,
} from '../api/hosting.ts';
import { KeyField } from '../keys/KeyField.tsx';
import { CodeEditor } from './CodeEditor.tsx';
import { AGENT_TEMPLATE, mainSource } from './template.ts';
import '../styles/controls.css';
import './hosting.css';

type Tab = 'logs' | 'storage' | 'secrets';

/** How often the logs tab refreshes while shown. */
const LOG_REFRESH_MS = 2000;

/** Hosted agents: list, create from a template, edit and save the code, start/stop/restart, logs, storage, secrets. */
export function HostingScreen() {
  const [token] = credential('hostingKey');
  const [selected, setSelected] = createSignal<string | null>(null);
  const [error, setError] = createSignal<string | null>(null);
  const [agents, { refetch: refetchAgents }] = createResource(token, (value) =>
    value ? listHosted(value) : Promise.resolve<HostedAgentSummary[]>([]),
  );
  const [agent, { refetch: refetchAgent }] = createResource(
    () => (token() && selected() ? ([token(), selected()!] as const) : null),
    ([key, address]) => getHosted(key, address),
  );
  const [source, setSource] = createSignal('');
  const [saved, setSaved] = createSignal<string | null>(null);
  const [tab, setTab] = createSignal<Tab>('logs');
  const [tick, setTick] = createSignal(0);
  const timer = setInterval(() => setTick(tick() + 1), LOG_REFRESH_MS);
  onCleanup(() => clearInterval(timer));
  const [logs] = createResource(
    () => (selected() && tab() === 'logs' ? ([token(), selected()!, tick()] as const) : null),
    ([key, address]) => latestLogs(key, address),
  );
  const [items] = createResource(
    () => (selected() && tab() === 'storage' ? ([token(), selected()!, tick()] as const) : null),
    ([key, address]) => storage(key, address),
  );
  const [secretList, { refetch: refetchSecrets }] = createResource(
    () => (selected() && tab() === 'secrets' ? ([token(), selected()!] as const) : null),
    ([key, address]) => secrets(key, address),
  );

  /** Runs an action, shows its refusal, and refreshes what it may have changed. */
  async function act(action: () => Promise<unknown>) {
    try {
      await action();
      setError(null);
    } catch (failure) {
      setError((failure as Error).message);
    }
    await Promise.all([refetchAgents(), selected() ? refetchAgent() : undefined]);
  }

  async function open(address: string) {
    setSelected(address);
    setSaved(null);
    await act(async () => setSource(mainSource((await getCode(token(), address)).code)));
  }

  let nameInput!: HTMLInputElement;
  let secretName!: HTMLInputElement;
  let secretValue!: HTMLInputElement;

  return (
    <section class="hosting">
      <KeyField name="hostingKey" label="API key with the hosting permission" hint="rdv_…" />
      <Show when={error()}>
        <p class="ui-notice error" role="alert">
          {error()}
        </p>
      </Show>
      <form
        class="hosting-create"
        onSubmit={(event) => {
          event.preventDefault();
          const name = nameInput.value.trim();
          if (!name) return;
          void act(async () => {
            const created = await createHosted(token(), name, `# ${name}\n`);
            await saveCode(token(), created.address, AGENT_TEMPLATE);
            nameInput.value = '';
            await open(created.address);
          });
        }}
      >
        <input class="ui-input" ref={nameInput} placeholder="New agent name" aria-label="New agent name" />
        <button class="ui-button" type="submit" disabled={!token()}>
          Create from template
        </button>
      </form>
      <table class="hosting-list">
        <thead>
          <tr>
            <th>Name</th>
            <th>Address</th>
            <th>Running</th>
            <th>Compiled</th>
          </tr>
        </thead>
        <tbody>
          <For each={agents() ?? []}>
            {(item) => (
              <tr aria-selected={selected() === item.address} onClick={() => void open(item.address)}>
                <td>{item.name}</td>
                <td class="ui-mono">{item.address.slice(0, 18)}…</td>
                <td>{item.running ? 'running' : 'stopped'}</td>
                <td>{item.compiled === null ? '—' : item.compiled ? 'yes' : 'failed'}</td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
      <Show when={agent()}>
        {(current) => (
          <div class="hosting-agent">
            <h2>
              {current().name} <small class="ui-mono">{current().address}</small>
            </h2>
            <p class="ui-muted" data-testid="agent-state">
              {current().running ? 'running' : 'stopped'} · compiled: {String(current().compiled)} · revision {current().revision}
              <Show when={saved()}> · saved, digest {saved()!.slice(0, 12)}</Show>
            </p>
            <CodeEditor value={source()} onChange={setSource} />
            <div class="hosting-actions">
              <button
                class="ui-button"
                type="button"
                onClick={() => void act(async () => setSaved(await saveCode(token(), current().address, source())))}
              >
                Save
              </button>
              <button
                class="ui-button secondary"
                type="button"
                onClick={() => void act(() => lifecycle(token(), current().address, 'start'))}
              >
                Start
              </button>
              <button
                class="ui-button secondary"
                type="button"
                onClick={() => void act(() => lifecycle(token(), current().address, 'stop'))}
              >
                Stop
              </button>
              <button
                class="ui-button secondary"
                type="button"
                onClick={() => void act(() => lifecycle(token(), current().address, 'restart'))}
              >
                Restart
              </button>
            </div>
            <nav class="hosting-tabs">
              <For each={['logs', 'storage', 'secrets'] as Tab[]}>
                {(name) => (
                  <button type="button" aria-current={tab() === name ? 'page' : undefined} onClick={() => setTab(name)}>
                    {name}
                  </button>
                )}
              </For>
            </nav>
            <Show when={tab() === 'logs'}>
              <pre class="hosting-logs" data-testid="agent-logs">
                <For each={logs.latest ?? []}>{(line) => `${line.log_timestamp} ${line.log_level} ${line.log_entry}\n`}</For>
              </pre>
            </Show>
            <Show when={tab() === 'storage'}>
              <table class="hosting-list">
                <tbody>
                  <For each={items.latest?.items ?? []}>
                    {(item) => (
                      <tr>
                        <td class="ui-mono">{item.key}</td>
                        <td class="ui-mono">{item.value}</td>
                      </tr>
                    )}
                  </For>
                </tbody>
              </table>
            </Show>
            <Show when={tab() === 'secrets'}>
              <ul>
                <For each={secretList() ?? []}>{(secret) => <li class="ui-mono">{secret.name}</li>}</For>
              </ul>
              <form
                class="hosting-create"
                onSubmit={(event) => {
                  event.preventDefault();
                  void act(async () => {
                    await setSecret(token(), current().address, secretName.value.trim(), secretValue.value);
                    secretName.value = '';
                    secretValue.value = '';
                    await refetchSecrets();
                  });
                }}
              >
                <input class="ui-input ui-mono" ref={secretName} placeholder="NAME" aria-label="Secret name" />
                <input class="ui-input" ref={secretValue} type="password" placeholder="value" aria-label="Secret value" />
                <button class="ui-button secondary" type="submit">
                  Set secret
                </button>
              </form>
            </Show>
          </div>
        )}
      </Show>
    </section>
  );
}
