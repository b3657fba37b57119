import type { CompletionEvent } from '../completion/events.ts';
import type { SessionEvent } from './agent-session.ts';
import type { AgenticRequest } from './request.ts';
import { named } from './steps.ts';
import type { Target } from './target.ts';
import { wordAnswer } from './word-answer.ts';

export const content = (text: string): CompletionEvent => ({ type: 'content', text });

/** The agent's name as a label can show it: one line, without the characters that would make it Markdown. */
const plainName = (target: Target) =>
  named(target.agent)
    .replace(/[\r\n*_`>#[\]|<]+/g, ' ')
    .trim();

/** Who is speaking, said before an agent's words: a third party, verified by the operator or not. */
function speaker(target: Target): string {
  const standing = target.evidence?.verified ? 'verified by this platform’s operator' : 'not verified by this platform’s operator';
  return `${plainName(target)}, a third-party agent ${standing}`;
}

/** An agent's text as a quotation: every line marked, so nothing in it can pass for this platform's own words. */
function quoted(text: string): string {
  return text
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');
}

function thirdPartyAnswer(target: Target, reply: string): string {
  return `${speaker(target)}, answered (its words, not this platform’s):\n\n${quoted(reply)}`;
}

/** An answer that came after an earlier request's deadline, shown before this request's answer. */
export function lateNote(peer: Target, event: SessionEvent): string {
  return `Earlier, after the deadline of that request, ${thirdPartyAnswer(peer, event.text)}\n\n---\n\n`;
}

/**
 * The agent's reply, always labelled as the agent's: quoted as it came offline; where a model is configured, in
 * the model's words under the same label (quoted as it came if the model fails).
 */
export async function* relayAnswer(run: AgenticRequest, target: Target, reply: string, earlier: string[]): AsyncGenerator<CompletionEvent> {
  if (earlier.length) yield content(earlier.join(''));
  if (run.model.provider === 'offline') {
    yield content(thirdPartyAnswer(target, reply));
    return;
  }
  try {
    const worded = await wordAnswer(run.model, run.provider, run.messages, target.agent, reply, run.maxTokens, run.signal);
    yield content(`Relayed from ${speaker(target)}, in this assistant’s words:\n\n`);
    yield* worded;
  } catch (error) {
    if (run.signal.aborted) throw error;
    console.warn('chat: the model could not word the agent’s answer; relayed as it came', error);
    yield content(thirdPartyAnswer(target, reply));
  }
}
