import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { createMemo } from 'solid-js';

/** Agent text rendered as Markdown (a line break is a break: agents write lines); sanitised, because it comes from another agent. */
export function Markdown(props: { text: string }) {
  const html = createMemo(() => DOMPurify.sanitize(marked.parse(props.text, { async: false, gfm: true, breaks: true })));
  return <div class="markdown" innerHTML={html()} />;
}
