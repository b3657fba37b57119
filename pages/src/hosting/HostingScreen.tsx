import { createResource, createSignal, For, Show } from 'solid-js';
import type { CodeFile, HostedAgentSummary } from '../../../schemas/hosting.ts';
import { credential } from '../api/credentials.ts';
import { valueUnlessFailed } from '../api/resource-value.ts';
import { createHosted, getCode, getHosted, lifecycle, listHosted, saveCode } from '../api/hosting.ts';
import { KeyField } from '../keys/KeyField.tsx';
import { AgentActions } from './AgentActions.tsx';
import { AgentTable } from './AgentTable.tsx';
import { CodeEditor } from './CodeEditor.tsx';
import { CreateAgentForm } from './CreateAgentForm.tsx';
import { LiveLogs } from './LiveLogs.tsx';
import { SecretsPanel } from './SecretsPanel.tsx';
import { StorageTable } from './StorageTable.tsx';
import { editorLanguage, filesOf, mainFile, TEMPLATES } from './template.ts';
import '../styles/controls.css';
import './hosting.css';

type Tab = 'logs' | 'storage' | 'secrets';

/** Hosted agents: list, create from a template (TypeScript or Python), edit and save the main file, start/stop/restart, logs, storage, secrets. */
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
  // The agent's files as loaded; the editor changes the main one.
  const [files, setFiles] = createSignal<CodeFile[]>([TEMPLATES.typescript]);
  const [source, setSource] = createSignal('');
  const [saved, setSaved] = createSignal<string | null>(null);
  const [tab, setTab] = createSignal<Tab>('logs');
  const main = () => mainFile(files());
  const listed = () => valueUnlessFailed(agents) ?? [];
  const opened = () => valueUnlessFailed(agent);

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
    await act(async () => {
      const loaded = filesOf((await getCode(token(), address)).code);
      setFiles(loaded);
      setSource(mainFile(loaded).value);
    });
  }

  const edited = () => files().map((file) => (file === main() ? { ...file, value: source() } : file));

  return (
    <section class="hosting">
      <KeyField name="hostingKey" label="API key with the hosting permission" hint="rdv_…" />
      <Show when={error()}>
        <p class="ui-notice error" role="alert">
          {error()}
        </p>
      </Show>
      <CreateAgentForm
        disabled={!token()}
        onCreate={(name, language) =>
          void act(async () => {
            const created = await createHosted(token(), name, `# ${name}\n`);
            await saveCode(token(), created.address, [TEMPLATES[language]]);
            await open(created.address);
          })
        }
      />
      <Show when={agents.error}>
        <p class="ui-notice error" role="alert">
          Cannot list hosted agents: {(agents.error as Error).message}
        </p>
      </Show>
      <AgentTable agents={listed()} selected={selected()} onOpen={(address) => void open(address)} />
      <Show when={token() && agents.state === 'ready' && listed().length === 0}>
        <p class="ui-muted">No hosted agents yet: create one from a template above.</p>
      </Show>
      <Show when={agent.error}>
        <p class="ui-notice error" role="alert">
          Cannot open the agent: {(agent.error as Error).message}
        </p>
      </Show>
      <Show when={opened()}>
        {(current) => (
          <div class="hosting-agent">
            <h2>
              {current().name} <small class="ui-mono">{current().address}</small>
            </h2>
            <p class="ui-muted" data-testid="agent-state">
              {current().running ? 'running' : 'stopped'} · compiled: {String(current().compiled)} · revision {current().revision} ·{' '}
              {main().name}
              <Show when={saved()}> · saved, digest {saved()!.slice(0, 12)}</Show>
            </p>
            <CodeEditor value={source()} language={editorLanguage(main())} onChange={setSource} />
            <AgentActions
              onSave={() => void act(async () => setSaved(await saveCode(token(), current().address, edited())))}
              onLifecycle={(action) => void act(() => lifecycle(token(), current().address, action))}
            />
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
              <LiveLogs token={token()} address={current().address} />
            </Show>
            <Show when={tab() === 'storage'}>
              <StorageTable token={token()} address={current().address} />
            </Show>
            <Show when={tab() === 'secrets'}>
              <SecretsPanel token={token()} address={current().address} act={act} />
            </Show>
          </div>
        )}
      </Show>
    </section>
  );
}
