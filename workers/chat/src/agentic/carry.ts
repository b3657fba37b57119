import { MAX_EARLIER_TURNS, withEarlierTurns } from '../../../../lib/agent/index.ts';
import type { ProviderMessage } from '../providers/types.ts';
import { findMention } from './addressing.ts';
import type { Target } from './target.ts';

/**
 * The user's questions before the last one: from the `messages` history when the client resends it (the OpenAI
 * way), else from what the session remembers (a client that sends only its new message with `x-session-id`).
 * Mentions are left out, as they are of the question itself.
 */
export function earlierQuestions(messages: ProviderMessage[], remembered: string[]): string[] {
  const asked = messages
    .filter((message) => message.role === 'user')
    .map((message) => (findMention(message.content)?.rest ?? message.content).trim())
    .filter(Boolean);
  const earlier = asked.slice(0, -1);
  return (earlier.length ? earlier : remembered).slice(-MAX_EARLIER_TURNS);
}

/**
 * What `target` is sent: the question alone when it has this conversation already (the session continues with
 * it), else the question with the user's earlier questions, so an agent new to the conversation (a new session,
 * a failover, another agent) can answer without the history. Agents' earlier answers are never carried.
 */
export function messageFor(target: Target, message: string, earlier: string[], continuing: Target | null): string {
  const seen = continuing?.agent.address === target.agent.address;
  return seen ? message : withEarlierTurns(message, earlier);
}
