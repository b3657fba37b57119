import { javascript } from '@codemirror/lang-javascript';
import { basicSetup, EditorView } from 'codemirror';
import { createEffect, onCleanup, onMount } from 'solid-js';

/** CodeMirror 6 with TypeScript highlighting; `value` replaces the text when it changes from outside. */
export function CodeEditor(props: { value: string; onChange: (text: string) => void }) {
  let host!: HTMLDivElement;
  let view: EditorView | undefined;
  onMount(() => {
    view = new EditorView({
      doc: props.value,
      parent: host,
      extensions: [
        basicSetup,
        javascript({ typescript: true }),
        EditorView.updateListener.of((update) => update.docChanged && props.onChange(update.state.doc.toString())),
      ],
    });
  });
  createEffect(() => {
    const text = props.value;
    if (view && view.state.doc.toString() !== text) view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
  });
  onCleanup(() => view?.destroy());
  return <div class="hosting-editor" ref={host} data-testid="code-editor" />;
}
