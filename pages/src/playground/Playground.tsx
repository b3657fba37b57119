import { createEffect, createResource, createSignal, For, Show } from 'solid-js';
import { listModels } from '../api/chat.ts';
import { credential } from '../api/credentials.ts';
import { valueUnlessFailed } from '../api/resource-value.ts';
import { KeyField } from '../keys/KeyField.tsx';
import { createConversation } from './conversation.ts';
import { MessageInput } from './MessageInput.tsx';
import { ModelSettings } from './ModelSettings.tsx';
import { ModeSwitch, type PlaygroundMode } from './ModeSwitch.tsx';
import { ReplyView } from './ReplyView.tsx';
import { toMessages } from './turns.ts';
import '../styles/controls.css';
import './playground.css';

/** The model of Agents mode: the chat endpoint hands the question to an agent it finds and answers with its reply. */
const AGENTIC_MODEL = 'llm1-agentic';

/**
 * The chat playground. Chat mode: pick a served model, stream replies with the model's thought apart, see
 * discovered agents. Agents mode: `llm1-agentic` talks to an agent, and its steps show as they stream.
 */
export function Playground() {
  const [token] = credential('apiKey');
  const [models] = createResource(token, (value) => (value ? listModels(value) : Promise.resolve([])));
  const [mode, setMode] = createSignal<PlaygroundMode>('chat');
  const [model, setModel] = createSignal('');
  const [temperature, setTemperature] = createSignal(1);
  const [maxTokens, setMaxTokens] = createSignal('');
  const [discovery, setDiscovery] = createSignal(false);
  const [system, setSystem] = createSignal('');
  const [draft, setDraft] = createSignal('');
  const conversation = createConversation(token);

  const listed = () => valueUnlessFailed(models) ?? [];
  const agentic = () => mode() === 'agents';
  const agenticServed = () => listed().some((m) => m.id === AGENTIC_MODEL && m.available);
  const chosenModel = () => (agentic() ? (agenticServed() ? AGENTIC_MODEL : '') : model());

  createEffect(() => {
    const list = listed();
    if (list.length && !list.some((m) => m.id === model())) setModel((list.find((m) => m.available) ?? list[0]!).id);
  });

  function send() {
    const text = draft().trim();
    const served = chosenModel();
    if (!text || conversation.streaming() || !served) return;
    setDraft('');
    const limit = maxTokens().trim() ? Math.floor(Number(maxTokens())) : null;
    const chat = {
      temperature: temperature(),
      ...(limit ? { max_tokens: limit } : {}),
      ...(discovery() ? { agent_discovery: true } : {}),
    };
    void conversation.send(text, {
      model: served,
      agentic: agentic(),
      request: (history) => ({ model: served, messages: toMessages(system(), history), ...(agentic() ? {} : chat) }),
    });
  }

  return (
    <section class="playground">
      <KeyField name="apiKey" label="API key (chat permission)" hint="rdv_… — create one on the API keys screen" />
      <Show when={token()} fallback={<p class="ui-notice">Enter an API key with the chat permission to talk to the models.</p>}>
        <ModeSwitch
          mode={mode()}
          onMode={(value) => {
            setMode(value);
            conversation.restart();
          }}
          agenticModel={AGENTIC_MODEL}
          agenticServed={agenticServed()}
          streaming={conversation.streaming()}
          hasTurns={conversation.turns.length > 0}
          onNewChat={conversation.restart}
        />
        <Show when={!agentic()}>
          <ModelSettings
            models={listed()}
            settings={{ model, setModel, temperature, setTemperature, maxTokens, setMaxTokens, discovery, setDiscovery }}
          />
        </Show>
        <Show when={models.error}>
          <p class="ui-notice error" role="alert">
            Cannot list models: {(models.error as Error).message}
          </p>
        </Show>
        <details class="playground-system">
          <summary class="ui-muted">System prompt</summary>
          <textarea
            class="ui-textarea"
            rows={2}
            aria-label="System prompt"
            value={system()}
            onInput={(event) => setSystem(event.currentTarget.value)}
          />
        </details>
        <div class="playground-conversation" aria-live="polite">
          <For each={conversation.turns}>
            {(turn) => (turn.role === 'user' ? <div class="playground-user">{turn.content}</div> : <ReplyView turn={turn} />)}
          </For>
        </div>
        <MessageInput
          draft={draft()}
          onDraft={setDraft}
          placeholder={agentic() ? 'Ask an agent… (name one with @handle)' : 'Message the model…'}
          canSend={Boolean(draft().trim() && chosenModel())}
          streaming={conversation.streaming()}
          onSend={send}
          onStop={conversation.stop}
        />
      </Show>
    </section>
  );
}
