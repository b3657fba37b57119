import { chatMessage } from '../../../../lib/agent/index.ts';
import type { AgentExecutionContext } from '../../../../lib/agent/index.ts';
import type { ChatCompletionRequest } from '../../../../schemas/chat.ts';
import type { CompletionEvent } from '../completion/events.ts';
import type { ServedModel } from '../config/models.ts';
import { discoverAgents } from '../discovery/discover.ts';
import type { ChatBindings } from '../env.ts';
import type { Provider, ProviderMessage } from '../providers/types.ts';
import { findMention } from './addressing.ts';
import type { SessionEvent } from './agent-session.ts';
import { chatAgent } from './chat-agent.ts';
import { type Choice, chooseByModel, chooseByRules } from './choose.ts';
import { resolveMention } from './resolve.ts';
import { agentSession, agentSessionFor } from './session-id.ts';
import { named, stepEvent } from './steps.ts';
import { type Target, targetOf } from './target.ts';
import { wordAnswer } from './word-answer.ts';

/** Agents tried for one question at most: a crowd of dead candidates must not keep the user waiting. */
const MAX_TARGETS = 3;
/** How long one agent has to take the message (lib/agent's retries inside it) while others remain, and the last one. */
const TAKE_TIMEOUT_MS = 4_000;
const LAST_TAKE_TIMEOUT_MS = 10_000;

export interface AgenticRequest {
  env: ChatBindings;
  executionCtx: AgentExecutionContext;
  keyId: string;
  token: string;
  request: ChatCompletionRequest;
  messages: ProviderMessage[];
  model: ServedModel;
  provider: Provider;
  /** The caller's `x-session-id`, when it continues a conversation. */
  callerSession: string | undefined;
  maxTokens: number;
  signal: AbortSignal;
}

const content = (text: string): CompletionEvent => ({ type: 'content', text });

/**
 * An agentic completion (`llm1-agentic`, `agent_discovery.execute`): find the agent (named by the user, the
 * conversation's, or discovered and chosen), send it the question as a signed ChatMessage in the conversation's
 * session, wait for its answer until the deadline, and answer with it. Every step is yielded as it happens;
 * every failure is an answer that says what happened.
 */
export async function* agenticCompletion(run: AgenticRequest): AsyncGenerator<CompletionEvent> {
  const session = await agentSessionFor(run.keyId, run.callerSession);
  const conversation = agentSession(run.env, session);
  const start = await conversation.begin(run.keyId, (Number(run.env.AGENT_SESSION_TTL_SECONDS) || 86_400) * 1000);
  if (!start.ok) throw new Error('an agent session derived from this key belongs to another');
  const earlier: string[] = [];
  for (const late of start.late) {
    if (!start.peer) break;
    yield stepEvent({ step: 'answered', text: late.text, agent: start.peer.agent, msg_id: late.msgId, late: true });
    earlier.push(lateNote(start.peer, late));
  }
  const told = (text: string) => content([...earlier, text].join(''));

  const lastUser = (run.messages.findLast((m) => m.role === 'user')?.content ?? '').trim();
  const mentioned = findMention(lastUser);
  const text = (mentioned?.rest ?? lastUser).slice(0, 4000);
  if (!text) {
    const why = 'the last user message has no question to send an agent';
    yield stepEvent({ step: 'failed', text: why, agent: null, reason: 'no_text' });
    yield told(`Nothing was sent: ${why}.`);
    return;
  }

  let choice: Choice;
  if (mentioned) {
    const resolved = await resolveMention(run.env, run.token, mentioned.mention, run.signal);
    if (!resolved.ok) {
      const who = mentioned.mention.kind === 'handle' ? `@${mentioned.mention.handle}` : mentioned.mention.address;
      const why = resolved.reason === 'unknown_handle' ? `no agent has the handle ${who}` : `the registry could not be asked who ${who} is`;
      yield stepEvent({ step: 'failed', text: why, agent: null, reason: resolved.reason });
      yield told(
        resolved.reason === 'unknown_handle'
          ? `No agent has the handle ${who}, so nothing was sent. Check the handle, or ask without one and an agent will be searched for.`
          : `The registry could not be asked who ${who} is, so nothing was sent. Try again shortly.`,
      );
      return;
    }
    const target = resolved.target;
    const reason = `the message names ${mentioned.mention.kind === 'handle' ? `@${mentioned.mention.handle}` : 'its address'}`;
    choice = { targets: [target], message: text, reason };
    yield stepEvent(
      {
        step: 'choose',
        text: `chose ${named(target.agent)}: ${choice.reason}`,
        choice: [target.agent.address],
        reason: choice.reason,
        agent: target.agent,
      },
      [target.manifest],
    );
  } else if (start.peer && run.callerSession) {
    const target = start.peer;
    choice = { targets: [target], message: text, reason: 'the conversation (x-session-id) is with this agent' };
    yield stepEvent(
      {
        step: 'choose',
        text: `continued with ${named(target.agent)}: ${choice.reason}`,
        choice: [target.agent.address],
        reason: choice.reason,
        agent: target.agent,
      },
      [target.manifest],
    );
  } else {
    const discovery = await discoverAgents(run.env, run.token, run.request, run.messages, run.signal, true);
    const search = discovery.steps[0];
    // Never itself: a question sent to the chat agent would come back to this endpoint.
    const self = chatAgent.address(run.env, run.executionCtx);
    const candidates = discovery.agents.filter((found) => found.address !== self).map(targetOf);
    if (search) yield { type: 'step', step: search, manifests: candidates.map((c) => c.manifest) };
    const failure = search?.step === 'search' ? search.error : null;
    if (failure || !candidates.length) {
      const why = failure ? `the agent search failed (${failure})` : 'no agent in the registry fits the question';
      yield stepEvent({ step: 'failed', text: why, agent: null, reason: failure ? 'search_failed' : 'no_agent' });
      yield told(
        failure
          ? 'The agent search failed, so no agent was asked. Try again shortly.'
          : 'No agent in the registry fits this question, so none was asked.',
      );
      return;
    }
    choice =
      run.model.provider === 'offline'
        ? chooseByRules(candidates, text, 'offline rules: the best-ranked reachable agent, sent the user’s words')
        : await chooseByModel(run.model, run.provider, run.messages, candidates, text, run.signal);
    const first = choice.targets[0]!;
    yield stepEvent({
      step: 'choose',
      text: `chose ${named(first.agent)}: ${choice.reason}`,
      choice: [first.agent.address],
      reason: choice.reason,
      agent: first.agent,
    });
  }

  const answerTimeoutMs = Number(run.env.AGENT_ANSWER_TIMEOUT_MS) || 45_000;
  const deadline = Date.now() + answerTimeoutMs;
  const agent = chatAgent.context(run.env, run.executionCtx);
  const targets = choice.targets.slice(0, MAX_TARGETS);
  const missed: string[] = [];
  let cursor = start.cursor;
  for (const [index, target] of targets.entries()) {
    const msgId = crypto.randomUUID();
    await conversation.expect(target, msgId);
    const takeTimeout = index === targets.length - 1 ? LAST_TAKE_TIMEOUT_MS : TAKE_TIMEOUT_MS;
    const status = await agent.deliver(target.agent.address, chatMessage(choice.message, { msgId }), {
      session,
      timeout: Math.max(1_000, Math.min(takeTimeout, deadline - Date.now())),
    });
    if (status.status !== 'delivered') {
      await conversation.withdraw(msgId);
      const reason = status.code ?? 'no_answer';
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
    yield stepEvent({ step: 'sent', text: choice.message, agent: target.agent, session, msg_id: msgId });

    for (;;) {
      const events = await conversation.next(cursor, deadline);
      if (!events.length) {
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
        yield told(`${named(target.agent)} did not answer within ${seconds} s.${later}`);
        return;
      }
      for (const event of events) {
        cursor = Math.max(cursor, event.seq);
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
        yield stepEvent({ step: 'answered', text: event.text, agent: target.agent, msg_id: event.msgId, late });
        if (late) {
          earlier.push(lateNote(target, event));
          continue;
        }
        yield* answerWith(run, target, event.text, earlier);
        return;
      }
    }
  }
  yield told(`${missed.join(', ')} could not be reached, so the question got no answer. Try again shortly.`);
}

/** The agent's reply: verbatim offline, in the model's words where one is configured (verbatim if it fails). */
async function* answerWith(run: AgenticRequest, target: Target, reply: string, earlier: string[]): AsyncGenerator<CompletionEvent> {
  if (earlier.length) yield content(earlier.join(''));
  if (run.model.provider === 'offline') {
    yield content(reply);
    return;
  }
  try {
    yield* await wordAnswer(run.model, run.provider, run.messages, target.agent, reply, run.maxTokens, run.signal);
  } catch (error) {
    if (run.signal.aborted) throw error;
    console.warn('chat: the model could not word the agent’s answer; relayed as it came', error);
    yield content(reply);
  }
}

function lateNote(peer: Target, event: SessionEvent): string {
  return `Earlier, ${named(peer.agent)} answered after the deadline of that request:\n\n${event.text}\n\n---\n\n`;
}
