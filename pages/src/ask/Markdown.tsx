import { SafeMarkdown } from '../markdown/SafeMarkdown.tsx';

/** Agent text rendered as Markdown (a line break is a break: agents write lines); made safe, because it comes from another agent. */
export function Markdown(props: { text: string }) {
  return <SafeMarkdown class="markdown" text={props.text} options={{ breaks: true }} />;
}
