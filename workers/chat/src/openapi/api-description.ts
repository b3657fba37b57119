import { z } from 'zod';
import { PLATFORM_VERSION } from '../../../../lib/http/health.ts';
import { type ApiInfo, type ResponseDescriptor, type RouteDescriptor, SERVICE_ROUTES } from '../../../../lib/openapi/index.ts';
import { ChatCompletion, ChatCompletionChunk, ChatCompletionRequest, ModelList, UsageReport } from '../../../../schemas/chat.ts';
import { EmbeddingList, EmbeddingRequest } from '../../../../schemas/embeddings.ts';
import { envelopeSchema } from '../../../../schemas/envelope.ts';
import { errorBodySchema } from '../../../../schemas/http.ts';
import { ResponseObject, ResponseRequest } from '../../../../schemas/responses.ts';

/**
 * The chat Worker's public API as the OpenAPI document describes it (GET /openapi.json, GET /docs). A route
 * added without an entry here shows up in the document as undocumented, and the e2e test fails on it.
 */
export const CHAT_API_INFO: ApiInfo = {
  title: 'Rendezvous chat completions, responses and embeddings',
  version: PLATFORM_VERSION,
  description:
    'OpenAI-compatible chat completions (`{llm_base_url}` = this origin + `/v1`): stock OpenAI SDKs work unchanged. Extras: `thought` in stream chunks, `executable_data` and `intermediate_steps` from agent discovery. Keys are the registry’s, with the `chat` permission. Every authenticated response carries `x-ratelimit-*` headers; 429 adds `retry-after`.',
};

const error = (description: string): ResponseDescriptor => ({ description, schema: errorBodySchema });

const authErrors = {
  401: error('Missing, unknown, expired or revoked key'),
  403: error('The key lacks the `chat` permission'),
  429: error('Rate limit of the key exceeded (see `retry-after`)'),
  500: error('Internal error'),
  503: error('The key service is unreachable (`auth_unavailable`; see `retry-after`)'),
};

const model = ModelList.shape.data.element.meta({ title: 'Model' });

export const CHAT_ROUTES: RouteDescriptor[] = [
  ...SERVICE_ROUTES,
  {
    method: 'post',
    path: '/v1/chat/completions',
    tag: 'Chat',
    auth: 'bearer',
    summary: 'Create a chat completion (JSON, or server-sent events with `stream: true`)',
    description:
      '`agent_discovery: true` (or `{limit, query}`) searches the registry for agents that fit the conversation and returns their manifests in `executable_data`, with the search and the choice in `intermediate_steps`. ' +
      'Model `llm1-agentic` (or `agent_discovery: {execute: true}`) also sends the question to the agent (discovered, or named as `@handle` or `agent1…` in the last user message) over AgentChatProtocol and answers with its reply; every step (sent, acknowledged, answered, timed_out, unreachable, failed) is in `intermediate_steps`, streamed as it happens. ' +
      'Header `x-session-id` continues a conversation with the same agent; an answer that came after the deadline arrives with the next request of the session.',
    body: ChatCompletionRequest.meta({ title: 'ChatCompletionRequest' }),
    example: { model: 'llm1', messages: [{ role: 'user', content: 'Hello!' }], stream: false },
    responses: {
      200: {
        description: 'The completion',
        schema: ChatCompletion.meta({ title: 'ChatCompletion' }),
        events: ChatCompletionChunk.meta({ title: 'ChatCompletionChunk' }),
      },
      400: error('Invalid parameters, or a content part the model does not take'),
      404: error('Unknown model (`model_not_found`)'),
      ...authErrors,
      422: error('Valid parameters that cannot be served (model unavailable here, prompt too long for the window)'),
      503: error('The upstream model provider is overloaded or timed out (see `retry-after`)'),
    },
  },
  {
    method: 'post',
    path: '/v1/responses',
    tag: 'Responses',
    auth: 'bearer',
    summary: 'Create a response: OpenAI’s Responses API (JSON, or its server-sent events with `stream: true`)',
    description:
      'The same keys, limits, metering and models as chat completions, on the same path beneath. Input items (messages, `function_call`, `function_call_output`, `item_reference`), `instructions`, function tools, `text.format` (json_schema, json_object), `previous_response_id`. ' +
      'Responses are stored for the key that made them (unless `store: false`) for RESPONSES_RETENTION_SECONDS (30 days by default). With `llm1-agentic`, each step of the talk with an agent is an `mcp_call` output item (`server_label` "rendezvous").',
    body: ResponseRequest.meta({ title: 'ResponseRequest' }),
    example: { model: 'llm1', input: 'Hello!' },
    responses: {
      200: { description: 'The response', schema: ResponseObject.meta({ title: 'Response' }) },
      400: error('Invalid parameters, a parameter or tool this gateway does not offer, or an unknown previous_response_id'),
      404: error('Unknown model (`model_not_found`)'),
      ...authErrors,
      422: error('Valid parameters that cannot be served (model unavailable here, prompt too long for the window)'),
      503: error('The upstream model provider is overloaded or timed out (see `retry-after`)'),
    },
  },
  {
    method: 'get',
    path: '/v1/responses/{id}',
    tag: 'Responses',
    auth: 'bearer',
    summary: 'A stored response of the calling key',
    params: z.object({ id: z.string().describe('Response id, resp_…') }),
    responses: {
      200: { description: 'The response', schema: ResponseObject },
      ...authErrors,
      404: error('No such response for this key, or past its retention'),
    },
  },
  {
    method: 'delete',
    path: '/v1/responses/{id}',
    tag: 'Responses',
    auth: 'bearer',
    summary: 'Delete a stored response of the calling key',
    params: z.object({ id: z.string().describe('Response id, resp_…') }),
    responses: {
      200: { description: 'Deleted', schema: z.object({ id: z.string(), object: z.literal('response'), deleted: z.literal(true) }) },
      ...authErrors,
      404: error('No such response for this key'),
    },
  },
  {
    method: 'post',
    path: '/v1/embeddings',
    tag: 'Embeddings',
    auth: 'bearer',
    summary: 'Embed texts: the offline word vectors (the registry’s) or Workers AI, by model',
    description:
      '`input` as a text, texts or token ids; `dimensions` where the model can shorten its vectors; `encoding_format` float or base64. Metered as prompt tokens.',
    body: EmbeddingRequest.meta({ title: 'EmbeddingRequest' }),
    example: { model: 'embed1', input: 'rain forecast for Paris' },
    responses: {
      200: { description: 'The vectors, in input order', schema: EmbeddingList.meta({ title: 'EmbeddingList' }) },
      400: error('Invalid input, or dimensions the model cannot make'),
      404: error('Unknown model (`model_not_found`)'),
      ...authErrors,
      422: error('The model’s provider is not configured here'),
    },
  },
  {
    method: 'get',
    path: '/v1/models',
    tag: 'Models',
    auth: 'bearer',
    summary: 'The model aliases this deployment serves',
    responses: { 200: { description: 'Models', schema: ModelList.meta({ title: 'ModelList' }) }, ...authErrors },
  },
  {
    method: 'get',
    path: '/v1/models/{id}',
    tag: 'Models',
    auth: 'bearer',
    summary: 'One model alias',
    params: z.object({ id: z.string().describe('Model alias, e.g. llm1') }),
    responses: { 200: { description: 'The model', schema: model }, ...authErrors, 404: error('No such model') },
  },
  {
    method: 'get',
    path: '/v1/usage',
    tag: 'Usage',
    auth: 'bearer',
    summary: 'The calling key’s recorded token usage and its limits',
    responses: { 200: { description: 'Usage in total and per model', schema: UsageReport.meta({ title: 'UsageReport' }) }, ...authErrors },
  },
  {
    method: 'post',
    path: '/agent/webhook',
    tag: 'Agent',
    auth: 'none',
    summary: 'The chat agent’s webhook (llm1-agentic): agents’ answers and acknowledgements, as signed envelopes',
    description:
      'AgentChatProtocol `ChatMessage` and `ChatAcknowledgement` envelopes, verified (signature, target, expiry, replay), filed into the conversation of their session, only from the agent the conversation is with.',
    body: envelopeSchema.meta({ title: 'Envelope' }),
    responses: {
      200: { description: 'Filed (and, for a chat message, acknowledged)', schema: z.object({ status: z.string() }) },
      400: error('Malformed envelope or payload, expired, or a message this agent does not take'),
      401: error('The signature does not verify'),
      403: error('Addressed to another agent, or from an agent the conversation is not with'),
      404: error('No conversation of this agent has the session'),
      409: error('Replayed envelope'),
      413: error('Envelope larger than 1 MiB'),
    },
  },
];
