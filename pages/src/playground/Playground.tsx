import { createEffect, createResource, createSignal, For, onCleanup, Show } from 'solid-js';
import { createStore, produce } from 'solid-js/store';
import { listModels, streamCompletion } from '../api/chat.ts';
import { credential } from '../api/credentials.ts';
import { KeyField } from '../keys/KeyField.tsx';
import { ReplyView } from './ReplyView.tsx';
import { applyChunk, emptyReply, toMessages, type AssistantTurn, type Turn } from './turns.ts';
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
  const [model, setModel] = createSignal('');
  const [mode, setMode] = createSignal<'chat' | 'agents'>('chat');
  /** One agent conversation per chat (`x-session-id`): follow-ups reach the same agent. */
  const [session, setSession] = createSignal(crypto.randomUUID());
  const agentic = () => mode() === 'agents';
  const agenticServed = () => models()?.some((m) => m.id === AGENTIC_MODEL && m.available) ?? false;
  const chosenModel = () => (agentic() ? (agenticServed() ? AGENTIC_MODEL : '') : model());
  const newChat = () => {
    setTurns([]);
    setSession(crypto.randomUUID());
  };
  const [temperature, setTemperature] = createSignal(1);
  const [maxTokens, setMaxTokens] = createSignal('');
  const [discovery, setDiscovery] = createSignal(false);
  const [system, setSystem] = createSignal('');
  const [draft, setDraft] = createSignal('');
  const [turns, setTurns] = createStore<Turn[]>([]);
  let running: AbortController | undefined;
  onCleanup(() => running?.abort());

  createEffect(() => {
    const list = models();
    if (list?.length && !list.some((m) => m.id === model())) setModel((list.find((m) => m.available) ?? list[0]!).id);
  });

  const streaming = () => turns.some((turn) => turn.role === 'assistant' && turn.streaming);
  const updateReply = (index: number, change: (turn: AssistantTurn) => AssistantTurn) =>
    setTurns(
      produce((all) => {
        all[index] = change(all[index] as AssistantTurn);
      }),
    );

  async function send(event: SubmitEvent) {
    event.preventDefault();
    const text = draft().trim();
    const served = chosenModel();
    if (!text || streaming() || !served) return;
    const history: Turn[] = [...turns, { role: 'user', content: text }];
    const index = history.length;
    setTurns([...history, emptyReply(served, agentic())]);
    setDraft('');
    const controller = new AbortController();
    running = controller;
    const limit = maxTokens().trim() ? Math.floor(Number(maxTokens())) : null;
    try {
      await streamCompletion(
        token(),
        agentic()
          ? { model: served, messages: toMessages(system(), history) }
          : {
              model: served,
              messages: toMessages(system(), history),
              temperature: temperature(),
              ...(limit ? { max_tokens: limit } : {}),
              ...(discovery() ? { agent_discovery: true } : {}),
            },
        (chunk) => updateReply(index, (turn) => applyChunk(turn, chunk)),
        controller.signal,
        agentic() ? { 'x-session-id': session() } : {},
      );
    } catch (error) {
      const message = (error as Error).name === 'AbortError' ? 'stopped' : (error as Error).message;
      updateReply(index, (turn) => ({ ...turn, error: message }));
    } finally {
      updateReply(index, (turn) => ({ ...turn, streaming: false }));
      running = undefined;
    }
  }

  return (
    <section class="playground">
      <KeyField name="apiKey" label="API key (chat permission)" hint="rdv_… — create one on the API keys screen" />
      <Show when={token()} fallback={<p class="ui-notice">Enter an API key with the chat permission to talk to the models.</p>}>
        <div class="ui-row playground-settings">
          <fieldset class="playground-mode">
            <legend class="ui-muted">Mode</legend>
            <For each={['chat', 'agents'] as const}>
              {(value) => (
                <label class="playground-check">
                  <input
                    type="radio"
                    name="playground-mode"
                    value={value}
                    checked={mode() === value}
                    disabled={streaming()}
                    onChange={() => {
                      setMode(value);
                      newChat();
                    }}
                  />
                  {value === 'chat' ? 'Chat' : 'Agents'}
                </label>
              )}
            </For>
          </fieldset>
          <Show when={agentic()}>
            <p class="ui-muted playground-mode-note">
              <Show
                when={agenticServed()}
                fallback={`This deployment does not serve ${AGENTIC_MODEL}: Agents mode needs the chat endpoint's agent.`}
              >
                {AGENTIC_MODEL} finds the agent for your question (or the one you name with @handle), sends it your message and answers with
                its reply.
              </Show>
            </p>
          </Show>
          <Show when={turns.length}>
            <button type="button" class="ui-button secondary" disabled={streaming()} onClick={newChat}>
              New chat
            </button>
          </Show>
        </div>
        <Show when={!agentic()}>
          <div class="ui-row playground-settings">
            <label class="ui-field">
              Model
              <select class="ui-select" aria-label="Model" value={model()} onChange={(event) => setModel(event.currentTarget.value)}>
                <For each={models() ?? []}>
                  {(m) => (
                    <option value={m.id} disabled={!m.available}>
                      {m.id} ({m.provider}
                      {m.available ? '' : ', unavailable'})
                    </option>
                  )}
                </For>
              </select>
            </label>
            <label class="ui-field">
              Temperature {temperature().toFixed(1)}
              <input
                type="range"
                min="0"
                max="2"
                step="0.1"
                value={temperature()}
                onInput={(event) => setTemperature(Number(event.currentTarget.value))}
              />
            </label>
            <label class="ui-field">
              Max tokens
              <input
                class="ui-input playground-number"
                type="number"
                min="1"
                placeholder="default"
                value={maxTokens()}
                onInput={(event) => setMaxTokens(event.currentTarget.value)}
              />
            </label>
            <label class="playground-check">
              <input type="checkbox" checked={discovery()} onChange={(event) => setDiscovery(event.currentTarget.checked)} />
              Discover agents
            </label>
          </div>
        </Show>
        <Show when={models.error}>
          <p class="ui-notice error">Cannot list models: {(models.error as Error).message}</p>
        </Show>
        <details class="playground-system">
          <summary class="ui-muted">System prompt</summary>
          <textarea class="ui-textarea" rows={2} value={system()} onInput={(event) => setSystem(event.currentTarget.value)} />
        </details>
        <div class="playground-conversation" aria-live="polite">
          <For each={turns}>
            {(turn) => (turn.role === 'user' ? <div class="playground-user">{turn.content}</div> : <ReplyView turn={turn} />)}
          </For>
        </div>
        <form class="playground-input" onSubmit={(event) => void send(event)}>
          <textarea
            class="ui-textarea"
            rows={2}
            placeholder={agentic() ? 'Ask an agent… (name one with @handle)' : 'Message the model…'}
            aria-label="Message"
            value={draft()}
            onInput={(event) => setDraft(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey) {
                event.preventDefault();
                event.currentTarget.form?.requestSubmit();
              }
            }}
          />
          <Show
            when={streaming()}
            fallback={
              <button type="submit" class="ui-button" disabled={!draft().trim() || !chosenModel()}>
                Send
              </button>
            }
          >
            <button type="button" class="ui-button secondary" onClick={() => running?.abort()}>
              Stop
            </button>
          </Show>
        </form>
      </Show>
    </section>
  );
}
