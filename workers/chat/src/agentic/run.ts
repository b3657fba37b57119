import type { CompletionEvent } from '../completion/events.ts';
import type { ProviderMessage } from '../providers/types.ts';
import { findMention } from './addressing.ts';
import { askInTurn } from './ask.ts';
import { earlierQuestions } from './carry.ts';
import { openConversation } from './conversation.ts';
import { pickAgent, type Question } from './pick.ts';
import { registryAccess } from './registry-access.ts';
import type { AgenticRequest } from './request.ts';
import { content } from './relay.ts';
import { stepEvent } from './steps.ts';

/** Longest question sent to an agent (the earlier questions it may carry are capped apart). */
const MAX_QUESTION_CHARS = 4000;

/** The last user message as the question, without the mention that named its agent; the user's earlier questions. */
function questionOf(messages: ProviderMessage[], remembered: string[]): Question {
  const lastUser = (messages.findLast((m) => m.role === 'user')?.content ?? '').trim();
  const mentioned = findMention(lastUser);
  return {
    text: (mentioned?.rest ?? lastUser).slice(0, MAX_QUESTION_CHARS),
    mention: mentioned?.mention ?? null,
    earlier: earlierQuestions(messages, remembered),
  };
}

/**
 * An agentic completion (`llm1-agentic`, `agent_discovery.execute`): open the conversation, pick the agent
 * (named by the user, the conversation's, or the most trusted relevant one a search finds), send it the
 * question, wait for its answer until the deadline, and answer with it, labelled as the agent's. Every step is
 * yielded as it happens; every failure is an answer that says what happened.
 */
export async function* agenticCompletion(run: AgenticRequest): AsyncGenerator<CompletionEvent> {
  const conversation = await openConversation(run.env, run.keyId, run.callerSession);
  yield* conversation.lateSteps;
  const notes = [...conversation.lateNotes];
  const question = questionOf(run.messages, conversation.questions);
  if (!question.text) {
    const why = 'the last user message has no question to send an agent';
    yield stepEvent({ step: 'failed', text: why, agent: null, reason: 'no_text' });
    yield content([...notes, `Nothing was sent: ${why}.`].join(''));
    return;
  }
  const picked = yield* pickAgent(run, registryAccess(run.env, run.token), conversation, question);
  if (!picked.ok) {
    yield content([...notes, picked.told].join(''));
    return;
  }
  yield* askInTurn(run, conversation, picked.choice, question, notes);
}
