import type { CompletionEvent } from '../completion/events.ts';
import type { Mention } from './addressing.ts';
import { findCandidates } from './candidates.ts';
import { chatAgent } from './chat-agent.ts';
import { type Choice, chooseByModel, chooseByRules } from './choose.ts';
import type { OpenConversation } from './conversation.ts';
import { searchFailureText } from './failure-text.ts';
import type { RegistryAccess } from './registry-access.ts';
import { resolveMention } from './resolve.ts';
import type { AgenticRequest } from './request.ts';
import { named, stepEvent } from './steps.ts';
import type { Target } from './target.ts';
import { describeEvidence, stepTrust } from './trust.ts';

/** The question, as the agent is to get it, and what the user said besides. */
export interface Question {
  text: string;
  mention: Mention | null;
  earlier: string[];
}

/** A choice was made (its steps yielded), or nothing can be sent and `told` says why. */
export type Picked = { ok: true; choice: Choice } | { ok: false; told: string };

/** The choice as a step; `alone` when it is the only agent considered (then it is also the `executable_data`). */
const chooseStep = (target: Target, text: string, reason: string, alone = true) =>
  stepEvent(
    {
      step: 'choose',
      text,
      choice: [target.agent.address],
      reason,
      agent: target.agent,
      ...(target.evidence ? { trust: stepTrust(target.evidence) } : {}),
    },
    alone ? [target.manifest] : undefined,
  );

/** The agent the user named (@handle or address): no search, no choice of ours. */
async function* namedByUser(
  run: AgenticRequest,
  access: RegistryAccess,
  mention: Mention,
  text: string,
): AsyncGenerator<CompletionEvent, Picked> {
  const resolved = await resolveMention(run.env, access, mention, run.signal);
  const who = mention.kind === 'handle' ? `@${mention.handle}` : mention.address;
  if (!resolved.ok) {
    const unknown = resolved.reason === 'unknown_handle';
    const why = unknown ? `no agent has the handle ${who}` : `the registry could not be asked who ${who} is`;
    yield stepEvent({ step: 'failed', text: why, agent: null, reason: resolved.reason });
    return {
      ok: false,
      told: unknown
        ? `No agent has the handle ${who}, so nothing was sent. Check the handle, or ask without one and an agent will be searched for.`
        : `The registry could not be asked who ${who} is, so nothing was sent. This is usually passing: try again in a moment.`,
    };
  }
  const target = resolved.target;
  const standing = target.evidence ? `; ${describeEvidence(target.evidence)}` : '; the registry shows nothing of it';
  const reason = `the message names ${mention.kind === 'handle' ? `@${mention.handle}` : 'its address'}${standing}`;
  yield chooseStep(target, `chose ${named(target.agent)}: ${reason}`, reason);
  return { ok: true, choice: { targets: [target], message: text, reason, usage: null } };
}

/** Searched as the chat agent, ranked by evidence, then chosen by the model (or the rules offline). */
async function* discovered(run: AgenticRequest, access: RegistryAccess, question: Question): AsyncGenerator<CompletionEvent, Picked> {
  const self = chatAgent.address(run.env, run.executionCtx);
  const found = await findCandidates(run.env, access, question.text, question.earlier, self, run.signal);
  yield found.step;
  if (!found.ok) {
    const failure = found.failure;
    const why = failure
      ? `the agent search failed (${failure.kind.replaceAll('_', ' ')}${failure.status ? `, HTTP ${failure.status}` : ''})`
      : 'no agent in the registry fits the question';
    yield stepEvent({ step: 'failed', text: why, agent: null, reason: failure ? `search_${failure.kind}` : 'no_agent' });
    return { ok: false, told: failure ? searchFailureText(failure) : 'No agent in the registry fits this question, so none was asked.' };
  }
  const candidates = found.targets;
  const choice =
    run.model.provider === 'offline'
      ? chooseByRules(candidates, question.text, 'offline rules: the most trusted relevant agent, sent the user’s words')
      : await chooseByModel(run.model, run.provider, run.messages, candidates, question.text, run.signal);
  if (choice.usage) yield { type: 'side_call', ...choice.usage };
  const first = choice.targets[0]!;
  const reason = first.evidence ? `${choice.reason}; ${describeEvidence(first.evidence)}` : choice.reason;
  yield chooseStep(first, `chose ${named(first.agent)}: ${reason}`, reason, false);
  return { ok: true, choice: { ...choice, reason } };
}

/**
 * Who gets the question: the agent the user named; else the agent this conversation is with (`x-session-id`);
 * else the most trusted relevant agent a search finds. Every step is yielded as it happens.
 */
export async function* pickAgent(
  run: AgenticRequest,
  access: RegistryAccess,
  conversation: OpenConversation,
  question: Question,
): AsyncGenerator<CompletionEvent, Picked> {
  if (question.mention) return yield* namedByUser(run, access, question.mention, question.text);
  const peer = conversation.continuing;
  if (peer) {
    const reason = 'the conversation (x-session-id) is with this agent';
    yield chooseStep(peer, `continued with ${named(peer.agent)}: ${reason}`, reason);
    return { ok: true, choice: { targets: [peer], message: question.text, reason, usage: null } };
  }
  return yield* discovered(run, access, question);
}
