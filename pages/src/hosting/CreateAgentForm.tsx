import type { EditorLanguage } from './template.ts';

/** A new hosted agent: its name and the language its template is in. */
export function CreateAgentForm(props: { disabled: boolean; onCreate: (name: string, language: EditorLanguage) => void }) {
  let nameInput!: HTMLInputElement;
  let languageSelect!: HTMLSelectElement;
  return (
    <form
      class="hosting-create"
      onSubmit={(event) => {
        event.preventDefault();
        const name = nameInput.value.trim();
        if (!name) return;
        props.onCreate(name, languageSelect.value as EditorLanguage);
        nameInput.value = '';
      }}
    >
      <input class="ui-input" ref={nameInput} placeholder="New agent name" aria-label="New agent name" />
      <select class="ui-input" ref={languageSelect} aria-label="Language">
        <option value="typescript">TypeScript</option>
        <option value="python">Python (uagents)</option>
      </select>
      <button class="ui-button" type="submit" disabled={props.disabled}>
        Create from template
      </button>
    </form>
  );
}
