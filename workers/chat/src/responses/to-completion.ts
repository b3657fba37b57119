import { ApiError } from '../../../../lib/http/api-error.ts';
import { describeZodError } from '../../../../lib/http/errors.ts';
import type { ResponseFormat } from '../../../../schemas/chat-parameters.ts';
import { ChatCompletionRequest, type ChatMessage, type ContentPart, type Tool, type ToolChoice } from '../../../../schemas/chat.ts';
import type { InputContentPart, InputItem, OutputItem, ResponseRequest } from '../../../../schemas/responses.ts';

/**
 * A Responses request as the chat completion beneath it (docs/decisions/0140): the earlier conversation
 * (`previous_response_id`), `instructions` as the system message, the input items as messages, function tools,
 * `text.format` as response_format. What has no counterpart is refused here, naming the parameter.
 */

function refuse(param: string, message: string, code = 'unsupported_parameter'): ApiError {
  return new ApiError({ status: 400, message, type: 'invalid_request_error', param, code });
}

/** Parameters of the Responses API refused whatever the model, with why (the others are honoured). */
function refuseUnsupported(body: ResponseRequest): void {
  if (body.truncation === 'auto')
    throw refuse('truncation', 'truncation "auto" is not supported: a prompt larger than the context window is refused, never cut');
  const include = body.include?.[0];
  if (include) throw refuse('include', `include ${JSON.stringify(include)} is not supported: responses carry their output only`);
  if (body.top_logprobs) throw refuse('top_logprobs', 'log probabilities are not relayed by this gateway');
  if (body.background) throw refuse('background', 'background responses are not supported: send the request and read its answer or stream');
  if (body.max_tool_calls != null) throw refuse('max_tool_calls', 'max_tool_calls is not supported: the gateway runs no tools of its own');
  if (body.stream_options?.include_obfuscation)
    throw refuse(
      'stream_options.include_obfuscation',
      'stream obfuscation is not offered by this gateway; send include_obfuscation: false',
    );
  for (const name of ['conversation', 'prompt', 'prompt_cache_retention', 'prompt_cache_options'] as const) {
    if (body[name] != null) throw refuse(name, `${name} is not supported by this gateway`);
  }
}

function tools(body: ResponseRequest): Tool[] | undefined {
  if (!body.tools?.length) return undefined;
  return body.tools.map((tool, index): Tool => {
    if (tool.type !== 'function' || !('name' in tool))
      throw refuse(`tools.${index}`, `tools[${index}] is a ${tool.type} tool; this gateway takes function tools only`);
    const { name, description, parameters, strict } = tool as Extract<typeof tool, { name: string }>;
    return {
      type: 'function',
      function: { name, ...(description != null ? { description } : {}), ...(parameters ? { parameters } : {}), strict },
    };
  });
}

function toolChoice(choice: ResponseRequest['tool_choice']): ToolChoice | undefined {
  if (choice == null) return undefined;
  if (typeof choice === 'string') return choice;
  if (choice.type === 'function' && typeof choice.name === 'string') return { type: 'function', function: { name: choice.name } };
  throw refuse('tool_choice', `tool_choice of type ${choice.type} is not supported: choose none, auto, required or a function`);
}

function responseFormat(format: NonNullable<ResponseRequest['text']>['format']): ResponseFormat | undefined {
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return format;
  const { name, description, schema, strict } = format;
  return { type: 'json_schema', json_schema: { name, schema, strict, ...(description != null ? { description } : {}) } };
}

/** One input content part as a chat content part; file ids (OpenAI's file store) have no counterpart here. */
function contentPart(part: InputContentPart, param: string): ContentPart {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: part.text };
    case 'refusal':
      return { type: 'text', text: part.refusal };
    case 'input_image':
      if (!part.image_url) throw refuse(param, 'images are taken as image_url (a URL or a data URL); file ids are not supported');
      return { type: 'image_url', image_url: { url: part.image_url, detail: part.detail } };
    case 'input_file':
      if (!part.file_data) throw refuse(param, 'files are taken as file_data (a data URL); file ids and file URLs are not supported');
      return { type: 'file', file: { file_data: part.file_data, filename: part.filename } };
  }
}

function content(value: string | InputContentPart[], param: string): string | ContentPart[] {
  return typeof value === 'string' ? value : value.map((part, index) => contentPart(part, `${param}.${index}`));
}

function textOf(value: string | ContentPart[]): string {
  return typeof value === 'string' ? value : value.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** Builds the messages from input items, a function call joining the assistant message before it. */
class Conversation {
  readonly messages: ChatMessage[] = [];

  add(item: InputItem | OutputItem, param: string): void {
    if (!('type' in item) || item.type === undefined || item.type === 'message') {
      const message = item as Extract<InputItem, { role: string }>;
      const body = content(message.content, `${param}.content`);
      if (message.role === 'assistant') this.messages.push({ role: 'assistant', content: textOf(body) });
      else this.messages.push({ role: message.role, content: body });
      return;
    }
    switch (item.type) {
      case 'function_call': {
        const call = { id: item.call_id, type: 'function' as const, function: { name: item.name, arguments: item.arguments } };
        const last = this.messages.at(-1);
        if (last?.role === 'assistant') last.tool_calls = [...(last.tool_calls ?? []), call];
        else this.messages.push({ role: 'assistant', content: null, tool_calls: [call] });
        return;
      }
      case 'function_call_output':
        this.messages.push({ role: 'tool', tool_call_id: item.call_id, content: textOf(content(item.output, `${param}.output`)) });
        return;
      default:
        // Reasoning and agent steps are the gateway's own earlier output: not part of what the model is sent.
        return;
    }
  }
}

/** What the translation needs from the key's stored responses. */
export interface StoredContext {
  /** The conversation `previous_response_id` ends (chat messages), when one was named. */
  previous: ChatMessage[];
  /** Stored output items named by `item_reference`, by id. */
  references: Record<string, OutputItem>;
}

/** The ids the input refers to (item_reference), for the store to look up. */
export function referencedIds(body: ResponseRequest): string[] {
  return typeof body.input === 'string'
    ? []
    : body.input.flatMap((item) => ('type' in item && item.type === 'item_reference' ? [item.id] : []));
}

/** The caller's input as chat messages (instructions not included), item references resolved. */
export function inputMessages(body: ResponseRequest, stored: StoredContext): ChatMessage[] {
  const conversation = new Conversation();
  if (typeof body.input === 'string') return [{ role: 'user', content: body.input }];
  body.input.forEach((item, index) => {
    if ('type' in item && item.type === 'item_reference') {
      const found = stored.references[item.id];
      if (!found) {
        throw refuse(
          `input.${index}.id`,
          `no stored item ${item.id} for this key (items are kept while their response is)`,
          'item_not_found',
        );
      }
      conversation.add(found, `input.${index}`);
    } else conversation.add(item, `input.${index}`);
  });
  return conversation.messages;
}

/** Internal names of the completion's parameters, as the Responses API calls them (for refusals from beneath). */
export const RESPONSES_PARAM_NAMES: Record<string, string> = {
  messages: 'input',
  response_format: 'text.format',
  'response_format.json_schema.schema': 'text.format.schema',
  verbosity: 'text.verbosity',
  reasoning_effort: 'reasoning.effort',
};

/** The chat completion request a Responses request stands for, checked against the chat contract. */
export function toCompletionRequest(body: ResponseRequest, input: ChatMessage[], stored: StoredContext): ChatCompletionRequest {
  refuseUnsupported(body);
  const messages: ChatMessage[] = [...stored.previous];
  // Instructions apply to this response only: OpenAI does not carry them over from previous_response_id.
  if (body.instructions) messages.push({ role: 'system', content: body.instructions });
  messages.push(...input);
  const candidate = {
    model: body.model,
    messages,
    temperature: body.temperature,
    top_p: body.top_p,
    tools: tools(body),
    tool_choice: toolChoice(body.tool_choice),
    parallel_tool_calls: body.parallel_tool_calls,
    response_format: responseFormat(body.text?.format),
    verbosity: body.text?.verbosity,
    reasoning_effort: body.reasoning?.effort,
    user: body.user,
    safety_identifier: body.safety_identifier,
    prompt_cache_key: body.prompt_cache_key,
    service_tier: body.service_tier,
  };
  const checked = ChatCompletionRequest.safeParse(candidate);
  if (!checked.success) {
    const { message, param } = describeZodError(checked.error);
    throw refuse(param ?? 'input', message.replace(/^messages\.\d+/, 'input'), 'invalid_parameter');
  }
  return checked.data;
}

/** The conversation a response ends, for the next one to continue: what came before, then its output as the assistant's turn. */
export function conversationAfter(before: ChatMessage[], output: OutputItem[]): ChatMessage[] {
  const conversation = new Conversation();
  conversation.messages.push(...before);
  for (const [index, item] of output.entries()) conversation.add(item, `output.${index}`);
  return conversation.messages;
}
