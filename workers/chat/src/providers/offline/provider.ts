import { decodeGenerator } from 'gpt-tokenizer';
import type { AgentManifest } from '../../../../../schemas/chat.ts';
import { encodeText } from '../../completion/token-count.ts';
import type { Provider, ProviderEvent, ProviderRequest } from '../types.ts';
import { lastTurn, type OfflinePlan, planReply } from './engine.ts';
import { jsonReply } from './json-reply.ts';
import { OFFLINE_LABEL } from './label.ts';

/** A deterministic call id, so the same conversation always yields the same tool call. */
function callId(name: string, args: string): string {
  let hash = 0x811c9dc5;
  for (const char of `${name}\u0000${args}`) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return `call_offline_${hash.toString(16).padStart(8, '0')}`;
}

/** Cuts `text` at the first stop sequence, as a model server would. */
function applyStop(text: string, stop: string[]): { text: string; stopped: string | null } {
  let cut: { at: number; stopped: string } | null = null;
  for (const sequence of stop) {
    const at = text.indexOf(sequence);
    if (at >= 0 && (!cut || at < cut.at)) cut = { at, stopped: sequence };
  }
  return cut ? { text: text.slice(0, cut.at), stopped: cut.stopped } : { text, stopped: null };
}

/** The reply's content in the caller's response_format: as planned, or JSON (none beside a tool call). */
function formatted(plan: OfflinePlan, request: ProviderRequest): string {
  const format = request.parameters.response_format;
  if (!format || format.type === 'text') return plan.content;
  if (plan.toolCall) return '';
  const conversation = request.messages.map((m) => m.content);
  return jsonReply(format, lastTurn(request.messages).content, plan.content.slice(OFFLINE_LABEL.length).trim(), conversation);
}

/**
 * The built-in offline engine as a provider: it plans its reply by rules (engine.ts) and streams it one
 * token at a time (gpt-tokenizer's tokens), thought first. `max_tokens` bounds thought and content together
 * and cuts with finish_reason `length`; stop sequences cut with `stop` and name the sequence in stop_reason.
 */
export function offlineProvider(options: { tokenDelayMs: number; agents: () => AgentManifest[] }): Provider {
  return {
    async stream(request: ProviderRequest) {
      const plan = planReply({
        messages: request.messages,
        tools: request.tools,
        toolChoice: request.tool_choice,
        agents: options.agents(),
      });
      const content = formatted(plan, request);
      return (async function* (): AsyncGenerator<ProviderEvent> {
        let budget = request.max_tokens;
        let truncated = false;
        async function* tokens(type: 'thought' | 'content', text: string): AsyncGenerator<ProviderEvent> {
          const encoded = encodeText(text);
          const allowed = encoded.slice(0, budget);
          budget -= allowed.length;
          if (allowed.length < encoded.length) truncated = true;
          for (const piece of decodeGenerator(allowed)) {
            if (request.signal.aborted) return;
            if (options.tokenDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, options.tokenDelayMs));
            yield { type, text: piece };
          }
        }
        yield* tokens('thought', content === plan.content ? plan.thought : `${plan.thought} The reply is given as JSON (response_format).`);
        const { text, stopped } = applyStop(content, request.stop);
        yield* tokens('content', text);
        if (plan.toolCall && !truncated && !stopped) {
          yield {
            type: 'tool_call',
            index: 0,
            id: callId(plan.toolCall.name, plan.toolCall.arguments),
            name: plan.toolCall.name,
            arguments: plan.toolCall.arguments,
          };
          yield { type: 'finish', reason: 'tool_calls', stopReason: null };
          return;
        }
        yield { type: 'finish', reason: truncated ? 'length' : 'stop', stopReason: truncated ? null : stopped };
      })();
    },
  };
}
