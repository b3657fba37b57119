import { createEffect, createMemo, For } from 'solid-js';
import { markdownToHtml, plainTextHtml, RENDER_LIMIT, type MarkdownOptions } from './markdown-html.ts';
import { sanitize } from './sanitize.ts';
import './markdown.css';

/** The rendered and sanitised text; should anything still throw, the text escaped, so a hostile text never breaks the screen. */
function safeHtml(text: string, options: MarkdownOptions): { html: string; notices: string[] } {
  try {
    const rendered = markdownToHtml(text, options);
    return { html: sanitize(rendered.html), notices: rendered.notices };
  } catch {
    return { html: plainTextHtml(text.slice(0, RENDER_LIMIT)), notices: ['Shown as plain text: it could not be rendered.'] };
  }
}

/**
 * Markdown written by another party (a README, an agent's answer): capped, rendered in bounded time, and
 * sanitised to text structure only. `decorate` runs on the rendered element after each render (README badges colour it).
 */
export function SafeMarkdown(props: { text: string; class: string; options?: MarkdownOptions; decorate?: (element: HTMLElement) => void }) {
  let element!: HTMLDivElement;
  const rendered = createMemo(() => safeHtml(props.text, props.options ?? {}));
  createEffect(() => {
    rendered();
    props.decorate?.(element);
  });
  return (
    <>
      <For each={rendered().notices}>{(notice) => <p class="markdown-notice">{notice}</p>}</For>
      <div ref={element} class={props.class} innerHTML={rendered().html} />
    </>
  );
}
