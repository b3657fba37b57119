import { For } from 'solid-js';
import type { AgentSearch } from './agent-search.ts';
import { AGENT_CATEGORIES, AGENT_STATES, AGENT_TYPES, SEARCH_SORTS, type SearchQuery } from './search-query.ts';

const SORT_LABELS: Record<SearchQuery['sort'], string> = {
  relevancy: 'Relevance',
  'created-at': 'Newest registration',
  'last-modified': 'Last modified',
  interactions: 'Interactions',
};

/** A multi-choice filter shown as toggles. */
function Toggles<T extends string>(props: { legend: string; values: readonly T[]; chosen: T[]; onChange: (next: T[]) => void }) {
  return (
    <fieldset class="explorer-toggles">
      <legend>{props.legend}</legend>
      <For each={props.values}>
        {(value) => (
          <label>
            <input
              type="checkbox"
              checked={props.chosen.includes(value)}
              onChange={(event) =>
                props.onChange(event.currentTarget.checked ? [...props.chosen, value] : props.chosen.filter((v) => v !== value))
              }
            />
            {value}
          </label>
        )}
      </For>
    </fieldset>
  );
}

/** The search box, sort and direction, and the registry's filters. */
export function SearchControls(props: { search: AgentSearch }) {
  const q = () => props.search.query();
  const update = (change: Partial<SearchQuery>) => props.search.update(change);
  return (
    <div class="explorer-controls">
      <input
        class="ui-input explorer-search"
        type="search"
        placeholder="Search agents by what they do…"
        aria-label="Search agents"
        value={q().text}
        onInput={(event) => update({ text: event.currentTarget.value })}
      />
      <div class="ui-row">
        <label class="ui-field">
          Sort by
          <select
            class="ui-select"
            aria-label="Sort by"
            value={q().sort}
            onChange={(event) => update({ sort: event.currentTarget.value as SearchQuery['sort'] })}
          >
            <For each={SEARCH_SORTS}>{(sort) => <option value={sort}>{SORT_LABELS[sort]}</option>}</For>
          </select>
        </label>
        <label class="ui-field">
          Order
          <select
            class="ui-select"
            aria-label="Order"
            value={q().direction}
            onChange={(event) => update({ direction: event.currentTarget.value as SearchQuery['direction'] })}
          >
            <option value="desc">Descending</option>
            <option value="asc">Ascending</option>
          </select>
        </label>
        <label class="ui-field">
          Tags
          <input
            class="ui-input"
            placeholder="finance, weather"
            aria-label="Tags"
            value={q().tags}
            onChange={(event) => update({ tags: event.currentTarget.value })}
          />
        </label>
        <label class="ui-field">
          Min. interactions
          <input
            class="ui-input explorer-number"
            type="number"
            min="0"
            aria-label="Minimum interactions"
            value={q().minInteractions ?? ''}
            onChange={(event) =>
              update({
                minInteractions: event.currentTarget.value === '' ? null : Math.max(0, Math.floor(Number(event.currentTarget.value))),
              })
            }
          />
        </label>
      </div>
      <details class="explorer-filters">
        <summary>Filters</summary>
        <div class="ui-row">
          <Toggles legend="State" values={AGENT_STATES} chosen={q().state} onChange={(state) => update({ state })} />
          <Toggles legend="Type" values={AGENT_TYPES} chosen={q().agentType} onChange={(agentType) => update({ agentType })} />
          <Toggles legend="Category" values={AGENT_CATEGORIES} chosen={q().category} onChange={(category) => update({ category })} />
          <fieldset class="explorer-toggles">
            <legend>README</legend>
            <label>
              <input type="checkbox" checked={q().hasReadme} onChange={(event) => update({ hasReadme: event.currentTarget.checked })} />
              has a README
            </label>
          </fieldset>
        </div>
      </details>
    </div>
  );
}
