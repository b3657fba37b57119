import { javascript } from '@codemirror/lang-javascript';
import { python } from '@codemirror/lang-python';
import { Compartment } from '@codemirror/state';
import { basicSetup, EditorView } from 'codemirror';
import { createEffect, onCleanup, onMount } from 'solid-js';
import type { EditorLanguage } from './template.ts';

const highlighting = (language: EditorLanguage) => (language === 'python' ? python() : javascript({ typescript: true }));

/**
 * CodeMirror 6 with Python or TypeScript highlighting; `value` replaces the text when it changes from
 * outside, `language` switches the highlighting in place.
 */
export function CodeEditor(props: { value: string; language: EditorLanguage; onChange: (text: string) => void }) {
  let host!: HTMLDivElement;
  let view: EditorView | undefined;
  const language = new Compartment();
  onMount(() => {
    view = new EditorView({
      doc: props.value,
      parent: host,
      extensions: [
        basicSetup,
        language.of(highlighting(props.language)),
        EditorView.updateListener.of((update) => update.docChanged && props.onChange(update.state.doc.toString())),
      ],
    });
  });
  createEffect(() => {
    const text = props.value;
    if (view && view.state.doc.toString() !== text) view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
  });
  createEffect(() => {
    const chosen = props.language;
    view?.dispatch({ effects: language.reconfigure(highlighting(chosen)) });
  });
  onCleanup(() => view?.destroy());
  return <div class="hosting-editor" ref={host} data-testid="code-editor" data-language={props.language} />;
}
