import { For, Show } from 'solid-js';
import type { AgentRecord } from '../../../schemas/search.ts';
import { formatDate, shortAddress } from './format.ts';

/** One search result: name, whether it is featured, status, what it does, its tags; opening it shows the whole agent. */
export function AgentCard(props: { agent: AgentRecord; onOpen: () => void }) {
  return (
    <li class="agent-card ui-panel">
      <div class="agent-card-head">
        <button type="button" class="agent-card-title" onClick={() => props.onOpen()}>
          {props.agent.name || shortAddress(props.agent.address)}
        </button>
        <span class="agent-card-badges">
          <Show when={props.agent.featured}>
            <span class="agent-card-featured" title="Featured by this registry's operator">
              Featured
            </span>
          </Show>
          <span class="ui-status" data-status={props.agent.status}>
            {props.agent.status}
          </span>
        </span>
      </div>
      <Show when={props.agent.description}>
        <p class="agent-card-description">{props.agent.description}</p>
      </Show>
      <Show when={props.agent.tags.length}>
        <div class="agent-card-tags">
          <For each={props.agent.tags}>{(tag) => <span class="ui-tag">{tag}</span>}</For>
        </div>
      </Show>
      <p class="ui-muted agent-card-meta">
        <span class="ui-mono" title={props.agent.address}>
          {shortAddress(props.agent.address)}
        </span>
        <span>{props.agent.type}</span>
        <span>{props.agent.total_interactions} interactions</span>
        <span>updated {formatDate(props.agent.last_updated)}</span>
      </p>
    </li>
  );
}
