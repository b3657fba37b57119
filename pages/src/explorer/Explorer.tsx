import { createResource, createSignal, For, Match, onCleanup, Show, Switch } from 'solid-js';
import type { AgentRecord, AgentSearchResponse } from '../../../schemas/search.ts';
import { credential } from '../api/credentials.ts';
import { getAgent, sendClick } from '../api/registry.ts';
import { KeyField } from '../keys/KeyField.tsx';
import { AgentCard } from './AgentCard.tsx';
import { linkedAgentAddress } from './agent-link.ts';
import { createAgentSearch } from './agent-search.ts';
import { AgentView } from './AgentView.tsx';
import { ConnectGuide } from './ConnectGuide.tsx';
import { Pager } from './Pager.tsx';
import { SearchControls } from './SearchControls.tsx';
import '../styles/controls.css';
import './explorer.css';

/** The agents explorer: search the registry as you type, open an agent to read its README. */
export function Explorer() {
  const [token] = credential('apiKey');
  const search = createAgentSearch(token);
  const [open, setOpen] = createSignal<AgentRecord | null>(null);
  const [clickError, setClickError] = createSignal<string | null>(null);
  // An agent's own page (`#explorer/<address>`), as other screens link to it.
  const [linked, setLinked] = createSignal(linkedAgentAddress(location.hash));
  const followHash = () => setLinked(linkedAgentAddress(location.hash));
  window.addEventListener('hashchange', followHash);
  onCleanup(() => window.removeEventListener('hashchange', followHash));
  const [linkedAgent] = createResource(
    () => (linked() && token() ? { token: token(), address: linked()! } : null),
    ({ token: key, address }) => getAgent(key, address),
  );

  /** The page the shown results are (a requested page shows once its results arrive). */
  const shownPage = (result: AgentSearchResponse) => Math.floor(result.offset / result.limit);

  /** Opening a result is the click feedback the registry learns from. */
  function openAgent(agent: AgentRecord) {
    const result = search.result();
    setOpen(agent);
    if (!result) return;
    sendClick(token(), { search_id: result.search_id, page_index: shownPage(result), address: agent.address }).then(
      () => setClickError(null),
      (error: Error) => setClickError(error.message),
    );
  }

  return (
    <section class="explorer">
      <KeyField name="apiKey" label="API key (read permission)" hint="rdv_… — create one on the API keys screen" />
      <Switch>
        <Match when={!token()}>
          <p class="ui-notice">Enter an API key with the read permission to search the registry.</p>
        </Match>
        <Match when={linked()}>
          <Show when={linkedAgent.error}>
            <p class="ui-notice error" role="alert">
              Agent {linked()} could not be read: {(linkedAgent.error as Error).message}
            </p>
          </Show>
          <Show
            when={linkedAgent.state === 'ready' && linkedAgent()}
            fallback={linkedAgent.error ? null : <p class="ui-muted">Loading the agent…</p>}
          >
            {(agent) => <AgentView agent={agent()} token={token()} onBack={() => (location.hash = 'explorer')} />}
          </Show>
        </Match>
        <Match when={open()}>
          {(agent) => (
            <>
              <Show when={clickError()}>
                <p class="ui-notice error" role="alert">
                  Click feedback was not recorded: {clickError()}
                </p>
              </Show>
              <AgentView agent={agent()} token={token()} onBack={() => setOpen(null)} />
            </>
          )}
        </Match>
        <Match when={true}>
          <ConnectGuide />
          <SearchControls search={search} />
          <Show when={search.error()}>
            <p class="ui-notice error" role="alert">
              Search failed: {search.error()}
            </p>
          </Show>
          <Show when={search.result()}>
            {(result) => (
              <>
                <p class="ui-muted explorer-summary" aria-live="polite">
                  {search.loading() ? 'Searching…' : `${result().total} agent${result().total === 1 ? '' : 's'}`}
                </p>
                <Show when={result().agents.length} fallback={<p class="ui-notice">No agent matches. Try fewer words or filters.</p>}>
                  <ul class="explorer-results">
                    <For each={result().agents}>{(agent) => <AgentCard agent={agent} onOpen={() => openAgent(agent)} />}</For>
                  </ul>
                </Show>
                <Pager result={result()} page={shownPage(result())} onPage={(page) => search.goTo(page)} />
              </>
            )}
          </Show>
        </Match>
      </Switch>
    </section>
  );
}
