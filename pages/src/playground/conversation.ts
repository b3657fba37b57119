import { type Accessor, createSignal, onCleanup } from 'solid-js';
import { createStore, produce } from 'solid-js/store';
import { type ChatRequestInput, streamCompletion } from '../api/chat.ts';
import { applyChunk, emptyReply, type AssistantTurn, type Turn } from './turns.ts';

/** What one message asks for: the model that answers, and the request made of the whole history. */
export interface Ask {
  model: string;
  agentic: boolean;
  request: (history: Turn[]) => ChatRequestInput;
}

/**
 * The playground's conversation: its turns, the reply streaming into the last one, and the agent session
 * (`x-session-id`, one per chat, so that follow-ups in Agents mode reach the same agent).
 */
export function createConversation(token: Accessor<string>) {
  const [turns, setTurns] = createStore<Turn[]>([]);
  const [session, setSession] = createSignal(crypto.randomUUID());
  let running: AbortController | undefined;
  onCleanup(() => running?.abort());

  const streaming = () => turns.some((turn) => turn.role === 'assistant' && turn.streaming);
  const updateReply = (index: number, change: (turn: AssistantTurn) => AssistantTurn) =>
    setTurns(
      produce((all) => {
        all[index] = change(all[index] as AssistantTurn);
      }),
    );

  async function send(text: string, ask: Ask) {
    const history: Turn[] = [...turns, { role: 'user', content: text }];
    const index = history.length;
    setTurns([...history, emptyReply(ask.model, ask.agentic)]);
    const controller = new AbortController();
    running = controller;
    try {
      await streamCompletion(
        token(),
        ask.request(history),
        (chunk) => updateReply(index, (turn) => applyChunk(turn, chunk)),
        controller.signal,
        ask.agentic ? { 'x-session-id': session() } : {},
      );
    } catch (error) {
      const message = (error as Error).name === 'AbortError' ? 'stopped' : (error as Error).message;
      updateReply(index, (turn) => ({ ...turn, error: message }));
    } finally {
      updateReply(index, (turn) => ({ ...turn, streaming: false }));
      running = undefined;
    }
  }

  return {
    turns,
    streaming,
    send,
    stop: () => running?.abort(),
    /** A new chat: no turns, and a new agent session. */
    restart: () => {
      setTurns([]);
      setSession(crypto.randomUUID());
    },
  };
}
