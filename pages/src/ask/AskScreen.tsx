import { createSignal, For, lazy, Match, onCleanup, Show, Suspense, Switch } from 'solid-js';
import { createStore } from 'solid-js/store';
import { MAX_QUESTION_CHARS } from '../../../schemas/question.ts';
import type { Turn, TurnUpdate } from './conversation.ts';
import { createPoller, POLL_LIMITS } from './poller.ts';
import { ROUTER_URL } from './router-config.ts';
import './ask.css';

/** The router's API with its wire schemas (zod): loaded when the question box gets focus, not with the screen. */
const routerApi = () => import('./router-api.ts');
/** The answer's view, with the Markdown renderer: loaded while the first answer is awaited. */
const AnalysisView = lazy(async () => ({ default: (await import('./AnalysisView.tsx')).AnalysisView }));

const EXAMPLES = ['What was Apple’s revenue in its latest annual report?', 'Summarise the risk factors in Tesla’s latest 10-K.'];

/** The reference application: ask the router a question, poll for the specialist's analysis. */
export function AskScreen() {
  const [turns, setTurns] = createStore<Turn[]>([]);
  const [question, setQuestion] = createSignal('');
  const [now, setNow] = createSignal(Date.now());
  const poller = createPoller();
  const clock = setInterval(() => setNow(Date.now()), 250);
  onCleanup(() => {
    poller.stop();
    clearInterval(clock);
  });

  const busy = () => turns.some((turn) => turn.state === 'sending' || turn.state === 'waiting');
  const tooLong = () => question().length > MAX_QUESTION_CHARS;
  const update = (id: number, next: TurnUpdate) => setTurns((turn) => turn.id === id, next as Partial<Turn>);

  async function ask(event: SubmitEvent) {
    event.preventDefault();
    const text = question().trim();
    if (!text || busy() || tooLong()) return;
    const id = turns.length + 1;
    setTurns(turns.length, { id, question: text, askedAt: Date.now(), state: 'sending' });
    setQuestion('');
    let api: Awaited<ReturnType<typeof routerApi>>;
    let sent: Awaited<ReturnType<typeof api.sendRequest>>;
    // A question the router did not take goes back into the box (unless a new one was typed): asking again is one key.
    const notTaken = (failure: TurnUpdate) => {
      update(id, failure);
      if (!question()) setQuestion(text);
    };
    try {
      api = await routerApi();
      sent = await api.sendRequest(text);
    } catch (error) {
      return notTaken({ state: 'error', message: `cannot reach the router at ${ROUTER_URL} (${(error as Error).message})` });
    }
    if (sent.kind === 'no_specialist') return notTaken({ state: 'no_specialist', message: sent.message });
    if (sent.kind === 'error') return notTaken({ state: 'error', message: sent.message });
    const requestId = sent.requestId;
    update(id, { state: 'waiting', requestId });
    void AnalysisView.preload().catch(() => undefined); // a load that fails shows when the answer is rendered
    poller.start(
      (signal) => api.getResponse(requestId, signal),
      (end) => {
        if (end.kind === 'answered') update(id, { state: 'answered', requestId, analysis: end.analysis });
        else if (end.kind === 'timeout') update(id, { state: 'timeout', requestId });
        else update(id, { state: 'error', message: end.message });
      },
    );
  }

  const seconds = (turn: Turn) => Math.max(0, Math.floor((now() - turn.askedAt) / 1000));

  return (
    <section class="reference">
      <div class="conversation" aria-live="polite">
        <Show when={turns.length === 0}>
          <div class="empty">
            <p>
              Ask the financial specialist about a listed company. The router finds it in the registry, sends it your question, and shows
              its analysis here.
            </p>
            <div class="examples">
              <For each={EXAMPLES}>
                {(example) => (
                  <button type="button" class="chip" onClick={() => setQuestion(example)}>
                    {example}
                  </button>
                )}
              </For>
            </div>
          </div>
        </Show>
        <For each={turns}>
          {(turn) => (
            <div class="turn" data-state={turn.state}>
              <div class="bubble question">{turn.question}</div>
              <div class="bubble answer">
                <Switch>
                  <Match when={turn.state === 'sending'}>
                    <p class="progress">
                      <span class="spinner" />
                      Finding a specialist…
                    </p>
                  </Match>
                  <Match when={turn.state === 'waiting'}>
                    <p class="progress">
                      <span class="spinner" />
                      Waiting for the specialist’s analysis… {seconds(turn)} s
                    </p>
                  </Match>
                  <Match when={turn.state === 'answered' && turn}>
                    {(answered) => (
                      <Suspense fallback={<p class="progress">Rendering the analysis…</p>}>
                        <AnalysisView analysis={answered().analysis} />
                      </Suspense>
                    )}
                  </Match>
                  <Match when={turn.state === 'no_specialist' && turn}>
                    {(failed) => (
                      <p class="notice warning">
                        No specialist is registered yet. Start the specialist agent and ask again. <small>({failed().message})</small>
                      </p>
                    )}
                  </Match>
                  <Match when={turn.state === 'timeout'}>
                    <p class="notice warning">No answer after {POLL_LIMITS.timeoutMs / 1000} s; polling stopped. Ask again to retry.</p>
                  </Match>
                  <Match when={turn.state === 'error' && turn}>
                    {(failed) => <p class="notice error">Something went wrong: {failed().message}</p>}
                  </Match>
                </Switch>
              </div>
            </div>
          )}
        </For>
      </div>
      <Show when={tooLong()}>
        <p class="notice warning" role="alert">
          A question is at most {MAX_QUESTION_CHARS.toLocaleString('en-US')} characters; this one has{' '}
          {question().length.toLocaleString('en-US')}.
        </p>
      </Show>
      <form class="ask" onSubmit={(event) => void ask(event)}>
        <textarea
          name="question"
          aria-label="Question"
          rows={2}
          placeholder="Ask about a company's filings…"
          value={question()}
          onFocus={() => void routerApi().catch(() => undefined) /* a load that fails is reported when the question is sent */}
          onInput={(event) => setQuestion(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey) {
              event.preventDefault();
              event.currentTarget.form?.requestSubmit();
            }
          }}
        />
        <button type="submit" disabled={busy() || !question().trim() || tooLong()}>
          {busy() ? 'Waiting…' : 'Ask'}
        </button>
      </form>
    </section>
  );
}
