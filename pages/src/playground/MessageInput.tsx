import { Show } from 'solid-js';

/** The message box: Enter sends (Shift+Enter is a new line); while a reply streams, Stop aborts it. */
export function MessageInput(props: {
  draft: string;
  onDraft: (text: string) => void;
  placeholder: string;
  canSend: boolean;
  streaming: boolean;
  onSend: () => void;
  onStop: () => void;
}) {
  return (
    <form
      class="playground-input"
      onSubmit={(event) => {
        event.preventDefault();
        props.onSend();
      }}
    >
      <textarea
        class="ui-textarea"
        rows={2}
        placeholder={props.placeholder}
        aria-label="Message"
        value={props.draft}
        onInput={(event) => props.onDraft(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey) {
            event.preventDefault();
            event.currentTarget.form?.requestSubmit();
          }
        }}
      />
      <Show
        when={props.streaming}
        fallback={
          <button type="submit" class="ui-button" disabled={!props.canSend}>
            Send
          </button>
        }
      >
        <button type="button" class="ui-button secondary" onClick={() => props.onStop()}>
          Stop
        </button>
      </Show>
    </form>
  );
}
