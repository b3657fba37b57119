import { chatMessage } from '../../../../lib/agent/index.ts';
import type { CompletionEvent } from '../completion/events.ts';
import { messageFor } from './carry.ts';
import { chatAgent } from './chat-agent.ts';
import type { Choice } from './choose.ts';
import type { OpenConversation } from './conversation.ts';
import { content, lateNote, relayAnswer } from './relay.ts';
import type { AgenticRequest } from './request.ts';
import { named, stepEvent } from './steps.ts';
import type { Target } from './target.ts';

/** Agents tried for one question at most: a crowd of dead candidates must not keep the user waiting. */
const MAX_TARGETS = 3;
/** How long one agent has to take the message (lib/agent's retries inside it) while others remain, and the last one. */
const TAKE_TIMEOUT_MS = 4_000;
const LAST_TAKE_TIMEOUT_MS = 10_000;

function untilAborted(signal: AbortSignal): Promise<null> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(null);
    else signal.addEventListener('abort', () => resolve(null), { once: true });
  });
}

type Waited = { kind: 'answered' } | { kind: 'timed_out' } | { kind: 'left' };

/** Waits in the session for `target`'s answer to `msgId`, yielding its acknowledgement, late answers and the answer. */
async function* awaitAnswer(
  run: AgenticRequest,
  conversation: OpenConversation,
  target: Target,
  msgId: string,
  deadline: number,
  earlier: string[],
): AsyncGenerator<CompletionEvent, Waited> {
  for (;;) {
    const events = await Promise.race([conversation.stub.next(conversation.cursor, deadline), untilAborted(run.signal)]);
    // The client left: nobody reads the rest. The answer, when it comes, waits in the session for its next request.
    if (events === null) return { kind: 'left' };
    if (!events.length) return { kind: 'timed_out' };
    for (const event of events) {
      conversation.cursor = Math.max(conversation.cursor, event.seq);
      if (event.kind === 'acknowledged') {
        if (event.msgId === msgId)
          yield stepEvent({
            step: 'acknowledged',
            text: `${named(target.agent)} acknowledged the message`,
            agent: target.agent,
            msg_id: msgId,
          });
        continue;
      }
      const late = event.msgId !== msgId;
      await conversation.stub.shown(event.seq);
      yield stepEvent({ step: 'answered', text: event.text, agent: target.agent, msg_id: event.msgId, late });
      if (late) {
        earlier.push(lateNote(target, event));
        continue;
      }
      yield* relayAnswer(run, target, event.text, earlier);
      return { kind: 'answered' };
    }
  }
}

/**
 * Sends the question to the chosen agents in turn (the next when one cannot be reached), each as a signed
 * ChatMessage in the conversation's session, and answers with the first answer, labelled as the agent's. The
 * question (and the user's earlier questions, for an agent new to the conversation) goes only to the agent a
 * `sent` step names. Every failure is an answer that says what happened.
 */
export async function* askInTurn(
  run: AgenticRequest,
  conversation: OpenConversation,
  choice: Choice,
  question: { text: string; earlier: string[] },
  notes: string[],
): AsyncGenerator<CompletionEvent> {
  const answerTimeoutMs = Number(run.env.AGENT_ANSWER_TIMEOUT_MS) || 45_000;
  const deadline = Date.now() + answerTimeoutMs;
  const agent = chatAgent.context(run.env, run.executionCtx);
  const targets = choice.targets.slice(0, MAX_TARGETS);
  const missed: string[] = [];
  for (const [index, target] of targets.entries()) {
    const msgId = crypto.randomUUID();
    const message = messageFor(target, choice.message, question.earlier, conversation.continuing);
    await conversation.stub.expect(target, msgId, question.text);
    // A busy agent is not a dead one: the last candidate, and one the operator verified, get the longer wait.
    const patient = index === targets.length - 1 || target.evidence?.verified === true;
    const status = await agent.deliver(target.agent.address, chatMessage(message, { msgId }), {
      session: conversation.session,
      timeout: Math.max(1_000, Math.min(patient ? LAST_TAKE_TIMEOUT_MS : TAKE_TIMEOUT_MS, deadline - Date.now())),
    });
    if (status.status !== 'delivered') {
      const reason = status.code ?? 'no_answer';
      // A timeout is not a refusal: the agent may have taken the message after all, and its answer must then be
      // matched to it (shown as late), not to the next message of the session.
      if (reason !== 'timeout') await conversation.stub.withdraw(msgId);
      const next = targets[index + 1];
      const then = next ? `; trying ${named(next.agent)}` : '';
      yield stepEvent({
        step: 'unreachable',
        text: `${named(target.agent)} could not be reached (${reason})${then}`,
        agent: target.agent,
        reason,
      });
      missed.push(`${named(target.agent)} (${reason})`);
      continue;
    }
    yield stepEvent({ step: 'sent', text: message, agent: target.agent, session: conversation.session, msg_id: msgId });
    const waited = yield* awaitAnswer(run, conversation, target, msgId, deadline, notes);
    if (waited.kind !== 'timed_out') return;
    const seconds = Math.round(answerTimeoutMs / 1000);
    yield stepEvent({
      step: 'timed_out',
      text: `${named(target.agent)} did not answer within ${seconds} s`,
      agent: target.agent,
      msg_id: msgId,
      deadline_ms: answerTimeoutMs,
    });
    const later = run.callerSession
      ? ' Its answer will come with your next message in this conversation (same x-session-id).'
      : ' Send an x-session-id header to continue a conversation and receive answers that come late.';
    yield content([...notes, `${named(target.agent)} did not answer within ${seconds} s.${later}`].join(''));
    return;
  }
  yield content(
    [
      ...notes,
      `${missed.join(', ')} could not be reached, so the question got no answer. This is often passing: try again in a moment.`,
    ].join(''),
  );
}
