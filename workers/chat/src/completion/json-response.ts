import type { ChatCompletion } from '../../../../schemas/chat.ts';
import type { CompletionEvent } from './events.ts';
import { type CompletionContext, recordStep } from './frame.ts';
import { CompletionTally } from './tally.ts';

/** Runs a completion to its end and renders OpenAI's `chat.completion` object with the spec's extras. */
export async function collectCompletion(
  events: AsyncIterable<CompletionEvent>,
  context: CompletionContext,
  promptTokens: number,
): Promise<{ body: ChatCompletion; tally: CompletionTally }> {
  const tally = new CompletionTally();
  for await (const event of events) {
    if (event.type === 'step') recordStep(context, event);
    tally.apply(event);
  }
  const toolCalls = tally.toolCalls();
  const body: ChatCompletion = {
    ...context.frame,
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: tally.content || (toolCalls.length ? null : ''),
          refusal: null,
          tool_calls: toolCalls.length ? toolCalls : null,
          reasoning_content: tally.thought || null,
          annotations: [],
          audio: null,
          function_call: null,
        },
        finish_reason: tally.finishReason,
        stop_reason: tally.stopReason,
        logprobs: null,
      },
    ],
    usage: tally.usage(promptTokens),
    executable_data: context.executableData,
    intermediate_steps: context.intermediateSteps,
    metadata: context.metadata,
  };
  return { body, tally };
}
