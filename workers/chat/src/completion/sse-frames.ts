import type { ChatCompletionChunk } from '../../../../schemas/chat.ts';
import type { CompletionFrame } from './frame.ts';

type Delta = ChatCompletionChunk['choices'][number]['delta'];

/**
 * The server-sent event frames of one completion's chunks. The part every delta chunk shares (id,
 * created, model, …) is serialised once per completion, so a token costs one small JSON.stringify of its delta;
 * the bytes are what `JSON.stringify` of the whole chunk gives, key order included.
 */
export function sseFrames(frame: CompletionFrame, usageNull = false) {
  const head = `data: ${JSON.stringify({ ...frame, object: 'chat.completion.chunk' }).slice(0, -1)},"choices":[{"index":0,"delta":`;
  // With include_usage, OpenAI gives every chunk but the last a `usage` of null.
  const tail = ',"finish_reason":null,"logprobs":null}]';
  const usage = usageNull ? ',"usage":null' : '';
  return {
    /** A chunk with only a delta, plus top-level fields after `choices` (`thought`), given as JSON members. */
    delta(delta: Delta, members = ''): string {
      return `${head}${JSON.stringify(delta)}${tail}${members}${usage}}\n\n`;
    },
    /** Any other value (the role, finish and usage chunks, an error), serialised whole. */
    value(value: unknown): string {
      return `data: ${JSON.stringify(value)}\n\n`;
    },
    done: 'data: [DONE]\n\n',
  };
}
