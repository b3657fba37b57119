import type { IntermediateStep } from '../../../../schemas/chat.ts';
import type { OutputItem, ResponseObject, ResponseUsage } from '../../../../schemas/responses.ts';
import type { CompletionEvent } from '../completion/events.ts';
import { type CompletionContext, recordStep } from '../completion/frame.ts';
import type { CompletionTally } from '../completion/tally.ts';

/** One event of OpenAI's Responses stream, before its sequence number. */
export type StreamEvent = { type: string } & Record<string, unknown>;

const newId = (prefix: string) => `${prefix}_${crypto.randomUUID().replaceAll('-', '')}`;

/** Steps whose outcome is a failure are failed calls; every other step completed. */
const FAILED_STEPS = new Set<IntermediateStep['step']>(['failed', 'unreachable', 'timed_out']);

/** An agentic step as an output item (schemas/responses.ts, OutputAgentStep): its kind, its fields, its line. */
function stepItem(step: IntermediateStep): OutputItem {
  const { step: kind, text, ...fields } = step;
  const failed = FAILED_STEPS.has(kind);
  return {
    type: 'mcp_call',
    id: newId('mcp'),
    status: failed ? 'failed' : 'completed',
    server_label: 'rendezvous',
    name: kind,
    arguments: JSON.stringify(fields),
    output: failed ? null : text,
    error: failed ? text : null,
  };
}

type Open =
  | { kind: 'message'; item: Extract<OutputItem, { type: 'message' }>; index: number }
  | { kind: 'reasoning'; item: Extract<OutputItem, { type: 'reasoning' }>; index: number }
  | { kind: 'function_call'; item: Extract<OutputItem, { type: 'function_call' }>; index: number };

/**
 * A response's output items, built from the completion's events in order (thought → a reasoning item, text → a
 * message, each tool call → a function_call, each agentic step → an mcp_call), with the stream events that
 * tell a client about them as they happen (OpenAI's Responses stream: item added, deltas, done).
 */
export class OutputBuilder {
  readonly items: OutputItem[] = [];
  private open: Open | null = null;
  private readonly calls = new Map<number, Open & { kind: 'function_call' }>();

  constructor(private readonly context: CompletionContext) {}

  /** Takes one event; returns the stream events it makes. */
  apply(event: CompletionEvent): StreamEvent[] {
    switch (event.type) {
      case 'thought':
        return this.text('reasoning', event.text);
      case 'content':
        return this.text('message', event.text);
      case 'tool_call':
        return this.toolCall(event);
      case 'step': {
        recordStep(this.context, event);
        const events = this.close();
        const item = stepItem(event.step);
        const index = this.items.push(item) - 1;
        return [
          ...events,
          { type: 'response.output_item.added', output_index: index, item },
          { type: 'response.output_item.done', output_index: index, item },
        ];
      }
      case 'thought_closed_unopened':
        return this.contentWasThought();
      default:
        return [];
    }
  }

  /** Closes the item still open; the output is complete. */
  finish(): StreamEvent[] {
    const events = this.close();
    for (const call of this.calls.values()) if (call.item.status === 'in_progress') events.push(...this.done(call));
    return events;
  }

  private text(kind: 'message' | 'reasoning', delta: string): StreamEvent[] {
    const events: StreamEvent[] = [];
    if (this.open?.kind !== kind) {
      events.push(...this.close());
      events.push(...(kind === 'message' ? this.openMessage() : this.openReasoning()));
    }
    const open = this.open!;
    if (open.kind === 'message') {
      open.item.content[0]!.text += delta;
      events.push({
        type: 'response.output_text.delta',
        item_id: open.item.id,
        output_index: open.index,
        content_index: 0,
        delta,
        logprobs: [],
      });
    } else if (open.kind === 'reasoning') {
      open.item.summary[0]!.text += delta;
      events.push({
        type: 'response.reasoning_summary_text.delta',
        item_id: open.item.id,
        output_index: open.index,
        summary_index: 0,
        delta,
      });
    }
    return events;
  }

  private openMessage(): StreamEvent[] {
    const item: Extract<OutputItem, { type: 'message' }> = {
      type: 'message',
      id: newId('msg'),
      status: 'in_progress',
      role: 'assistant',
      content: [],
    };
    const index = this.items.push(item) - 1;
    const part = { type: 'output_text' as const, text: '', annotations: [], logprobs: [] };
    const added: StreamEvent = { type: 'response.output_item.added', output_index: index, item: structuredClone(item) };
    item.content.push(part);
    this.open = { kind: 'message', item, index };
    return [added, { type: 'response.content_part.added', item_id: item.id, output_index: index, content_index: 0, part: { ...part } }];
  }

  private openReasoning(): StreamEvent[] {
    const item: Extract<OutputItem, { type: 'reasoning' }> = { type: 'reasoning', id: newId('rs'), summary: [] };
    const index = this.items.push(item) - 1;
    const added: StreamEvent = { type: 'response.output_item.added', output_index: index, item: structuredClone(item) };
    item.summary.push({ type: 'summary_text', text: '' });
    this.open = { kind: 'reasoning', item, index };
    return [
      added,
      {
        type: 'response.reasoning_summary_part.added',
        item_id: item.id,
        output_index: index,
        summary_index: 0,
        part: { type: 'summary_text', text: '' },
      },
    ];
  }

  private toolCall(event: Extract<CompletionEvent, { type: 'tool_call' }>): StreamEvent[] {
    const events: StreamEvent[] = [];
    let call = this.calls.get(event.index);
    if (!call) {
      events.push(...this.close());
      const item: Extract<OutputItem, { type: 'function_call' }> = {
        type: 'function_call',
        id: newId('fc'),
        call_id: event.id ?? newId('call'),
        name: event.name ?? '',
        arguments: '',
        status: 'in_progress',
      };
      const index = this.items.push(item) - 1;
      call = { kind: 'function_call', item, index };
      this.calls.set(event.index, call);
      events.push({ type: 'response.output_item.added', output_index: index, item: { ...item } });
    } else if (event.name) call.item.name += event.name;
    if (event.arguments) {
      call.item.arguments += event.arguments;
      events.push({
        type: 'response.function_call_arguments.delta',
        item_id: call.item.id,
        output_index: call.index,
        delta: event.arguments,
      });
    }
    return events;
  }

  /** A `</think>` came without an opening tag: the message so far was a thought (its stream events already went out). */
  private contentWasThought(): StreamEvent[] {
    if (this.open?.kind !== 'message') return [];
    const { item, index } = this.open;
    this.items[index] = { type: 'reasoning', id: newId('rs'), summary: [{ type: 'summary_text', text: item.content[0]!.text }] };
    this.open = null;
    return [];
  }

  private close(): StreamEvent[] {
    const open = this.open;
    this.open = null;
    if (!open || open.kind === 'function_call') return [];
    if (open.kind === 'message') {
      open.item.status = 'completed';
      const part = open.item.content[0]!;
      return [
        {
          type: 'response.output_text.done',
          item_id: open.item.id,
          output_index: open.index,
          content_index: 0,
          text: part.text,
          logprobs: [],
        },
        { type: 'response.content_part.done', item_id: open.item.id, output_index: open.index, content_index: 0, part },
        { type: 'response.output_item.done', output_index: open.index, item: open.item },
      ];
    }
    const summary = open.item.summary[0]!;
    return [
      {
        type: 'response.reasoning_summary_text.done',
        item_id: open.item.id,
        output_index: open.index,
        summary_index: 0,
        text: summary.text,
      },
      { type: 'response.reasoning_summary_part.done', item_id: open.item.id, output_index: open.index, summary_index: 0, part: summary },
      { type: 'response.output_item.done', output_index: open.index, item: open.item },
    ];
  }

  private done(call: Open & { kind: 'function_call' }): StreamEvent[] {
    call.item.status = 'completed';
    return [
      { type: 'response.function_call_arguments.done', item_id: call.item.id, output_index: call.index, arguments: call.item.arguments },
      { type: 'response.output_item.done', output_index: call.index, item: call.item },
    ];
  }
}

/** The chat usage in the Responses API's words. */
export function responseUsage(tally: CompletionTally, promptTokens: number): ResponseUsage {
  const usage = tally.usage(promptTokens);
  return {
    input_tokens: usage.prompt_tokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: usage.reasoning_tokens },
    total_tokens: usage.total_tokens,
  };
}

/** The response's final state from its finish reason: cut by the budget or a filter is `incomplete`, with why. */
export function finalStatus(tally: CompletionTally): Pick<ResponseObject, 'status' | 'incomplete_details'> {
  if (tally.finishReason === 'length') return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (tally.finishReason === 'content_filter') return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  return { status: 'completed', incomplete_details: null };
}

/** The text of the output's messages, as the SDKs' `output_text` gives it. */
export function outputText(items: OutputItem[]): string {
  return items.flatMap((item) => (item.type === 'message' ? item.content.map((part) => part.text) : [])).join('');
}
