import { createSignal } from 'solid-js';
import type { CreatedKey } from '../../../schemas/keys.ts';
import { credential } from '../api/credentials.ts';

/** The one moment the secret is visible: copy it, or use it in this tab's explorer and playground. */
export function NewKeyNotice(props: { created: CreatedKey; onDismiss: () => void }) {
  const [, setApiKey] = credential('apiKey');
  const [copied, setCopied] = createSignal(false);
  const [used, setUsed] = createSignal(false);
  return (
    <div class="ui-panel keys-new" role="status">
      <p>
        <strong>Key “{props.created.name}” created.</strong> Copy it now: the registry stores only its hash and will not show it again.
      </p>
      <p class="ui-mono keys-secret" data-testid="new-key">
        {props.created.key}
      </p>
      <div class="ui-row">
        <button
          type="button"
          class="ui-button"
          onClick={() =>
            void navigator.clipboard?.writeText(props.created.key).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied() ? 'Copied' : 'Copy'}
        </button>
        <button
          type="button"
          class="ui-button secondary"
          onClick={() => {
            setApiKey(props.created.key);
            setUsed(true);
          }}
        >
          {used() ? 'In use in this tab' : 'Use in explorer and playground'}
        </button>
        <button type="button" class="ui-button secondary" onClick={() => props.onDismiss()}>
          Done
        </button>
      </div>
    </div>
  );
}
