import { Show } from 'solid-js';
import type { AgentSearchResponse } from '../../../schemas/search.ts';

/** Previous / next over a search session's pages. */
export function Pager(props: { result: AgentSearchResponse; page: number; onPage: (page: number) => void }) {
  const pages = () => Math.max(1, Math.ceil(props.result.total / props.result.limit));
  return (
    <Show when={pages() > 1}>
      <nav class="explorer-pager" aria-label="Result pages">
        <button type="button" class="ui-button secondary" disabled={props.page === 0} onClick={() => props.onPage(props.page - 1)}>
          ← Previous
        </button>
        <span class="ui-muted">
          Page {props.page + 1} of {pages()}
        </span>
        <button type="button" class="ui-button secondary" disabled={props.page + 1 >= pages()} onClick={() => props.onPage(props.page + 1)}>
          Next →
        </button>
      </nav>
    </Show>
  );
}
