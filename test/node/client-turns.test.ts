import { describe, expect, it } from 'vitest';
import type { ChatCompletionChunk, IntermediateStep } from '../../schemas/chat.ts';
import { applyChunk, emptyReply } from '../../pages/src/playground/turns.ts';

/** The playground folds stream chunks into a reply: steps accumulate as they stream (Agents mode). */

const agent = { address: 'agent1qexample', name: 'Financial Analyst', handle: null };
const chunk = (extra: Partial<ChatCompletionChunk>, content?: string): ChatCompletionChunk => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 0,
  model: 'llm1-agentic',
  system_fingerprint: 'fp',
  service_tier: 'default',
  choices: [{ index: 0, delta: content === undefined ? {} : { content }, finish_reason: null, logprobs: null }],
  ...extra,
});
const step = (kind: 'sent' | 'acknowledged'): IntermediateStep =>
  kind === 'sent'
    ? { step: 'sent', text: 'revenue?', at: '2026-01-01T00:00:00Z', agent, session: 's', msg_id: 'm' }
    : { step: 'acknowledged', text: 'ok', at: '2026-01-01T00:00:01Z', agent, msg_id: 'm' };

describe('the playground reply', () => {
  it('appends the steps of each chunk, in order, and keeps them when a chunk has none', () => {
    let turn = emptyReply('llm1-agentic', true);
    turn = applyChunk(turn, chunk({ intermediate_steps: [step('sent')] }));
    turn = applyChunk(turn, chunk({}, 'The answer'));
    turn = applyChunk(turn, chunk({ intermediate_steps: [step('acknowledged')] }));
    expect(turn.steps.map((s) => s.step)).toEqual(['sent', 'acknowledged']);
    expect(turn).toMatchObject({ content: 'The answer', agentic: true });
  });

  it('takes the usage of the last chunk, which has no choices', () => {
    const usage = {
      prompt_tokens: 3,
      completion_tokens: 2,
      total_tokens: 5,
      prompt_tokens_details: null,
      completion_tokens_details: null,
      reasoning_tokens: 0,
    };
    const turn = applyChunk(emptyReply('llm1'), chunk({ choices: [], usage }));
    expect(turn.usage).toEqual(usage);
  });
});
