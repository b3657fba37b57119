import { For } from 'solid-js';
import type { AnalysisItem } from '../../../schemas/messages.ts';
import { Markdown } from './Markdown.tsx';

/** The spec's label: name, falling back to role, falling back to `Agent`. */
export function itemLabel(item: AnalysisItem): string {
  return item.name || item.role || 'Agent';
}

export function AnalysisView(props: { analysis: AnalysisItem[] }) {
  return (
    <div class="analysis">
      <For each={props.analysis}>
        {(item) => (
          <article class="analysis-item">
            <header class="analysis-label">{itemLabel(item)}</header>
            <Markdown text={item.content} />
          </article>
        )}
      </For>
    </div>
  );
}
