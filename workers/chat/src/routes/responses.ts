import type { Context } from 'hono';
import { Hono } from 'hono';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { validate } from '../../../../lib/http/validate.ts';
import { CHAT_MAX_BODY_BYTES, type ChatMessage } from '../../../../schemas/chat.ts';
import { OutputItem, ResponseRequest } from '../../../../schemas/responses.ts';
import type { ChatApp } from '../auth/require-key.ts';
import { startCompletion } from '../completion/start.ts';
import { collectResponse, ResponseRun, streamResponse } from '../responses/render.ts';
import { responseStoreFor } from '../responses/response-store.ts';
import {
  inputMessages,
  RESPONSES_PARAM_NAMES,
  referencedIds,
  type StoredContext,
  toCompletionRequest,
} from '../responses/to-completion.ts';
import { currentLimitHeaders, limitedError } from './respond.ts';

const validRequest = validate('json', ResponseRequest, undefined, CHAT_MAX_BODY_BYTES);

/** How long stored responses are kept (RESPONSES_RETENTION_SECONDS, 30 days unless the deployment says otherwise). */
function retentionMs(env: ChatEnv): number {
  return (Number(env.RESPONSES_RETENTION_SECONDS) || 30 * 86_400) * 1000;
}

/** A refusal from the completion beneath, naming the parameter as the Responses API calls it. */
function inResponsesTerms(error: unknown): unknown {
  if (!(error instanceof ApiError) || !error.param) return error;
  const internal = Object.keys(RESPONSES_PARAM_NAMES).find((name) => error.param === name || error.param!.startsWith(`${name}.`));
  if (!internal) return error;
  const rename = (text: string) => text.replaceAll(internal, RESPONSES_PARAM_NAMES[internal]!);
  // Other parameters the message quotes, as OpenAI's messages do ('response_format' beside 'messages').
  const message = Object.entries(RESPONSES_PARAM_NAMES).reduce(
    (text, [from, to]) => text.replaceAll(`'${from}'`, `'${to}'`),
    error.message,
  );
  return new ApiError({
    status: error.status,
    message: rename(message),
    type: error.type,
    param: rename(error.param),
    code: error.code,
    headers: error.headers,
  });
}

/** What the key's store holds that this request names: the conversation it continues, the items it refers to. */
async function storedContext(c: Context<ChatApp>, body: ResponseRequest): Promise<StoredContext> {
  const store = responseStoreFor(c.env, c.get('key').keyId);
  let previous: ChatMessage[] = [];
  if (body.previous_response_id) {
    const conversation = await store.conversation(body.previous_response_id);
    if (conversation === null) {
      const message = `Previous response with id '${body.previous_response_id}' not found (responses are kept ${retentionMs(c.env) / 86_400_000} days, for the key that made them).`;
      throw new ApiError({
        status: 400,
        message,
        type: 'invalid_request_error',
        param: 'previous_response_id',
        code: 'previous_response_not_found',
      });
    }
    previous = JSON.parse(conversation) as ChatMessage[];
  }
  const ids = referencedIds(body);
  const found = ids.length ? await store.items(ids) : {};
  const references = Object.fromEntries(Object.entries(found).map(([id, item]) => [id, OutputItem.parse(JSON.parse(item))]));
  return { previous, references };
}

/**
 * POST /v1/responses: OpenAI's Responses API on the chat completion path (completion/start.ts): the same keys,
 * limits, metering and providers. GET and DELETE /v1/responses/{id}: the key's stored responses.
 */
export const responses = new Hono<ChatApp>()
  .post('/responses', validRequest, async (c) => {
    const body = c.req.valid('json');
    let stored: StoredContext;
    let input: ChatMessage[];
    let request: ReturnType<typeof toCompletionRequest>;
    try {
      stored = await storedContext(c, body);
      input = inputMessages(body, stored);
      request = toCompletionRequest(body, input, stored);
    } catch (error) {
      throw await limitedError(c, error);
    }
    const budget = body.max_output_tokens == null ? null : { tokens: body.max_output_tokens, param: 'max_output_tokens' };
    const run = await startCompletion(c, { request, budget, messagesParam: 'input' }).catch((error: unknown) => {
      throw inResponsesTerms(error);
    });
    const store = responseStoreFor(c.env, c.get('key').keyId);
    const save = body.store === false ? null : (record: Parameters<typeof store.save>[0]) => store.save(record, retentionMs(c.env));
    const response = new ResponseRun(run, body, [...stored.previous, ...input], save);
    if (body.stream) {
      const stream = streamResponse(response, run, (work) => c.executionCtx.waitUntil(work));
      return new Response(stream, {
        headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...run.headers },
      });
    }
    try {
      return c.json(await collectResponse(response, run), 200, run.headers);
    } catch (error) {
      throw await limitedError(c, inResponsesTerms(error), run.limitState);
    }
  })
  .get('/responses/:id', async (c) => {
    const found = await responseStoreFor(c.env, c.get('key').keyId).response(c.req.param('id'));
    if (found === null) throw await limitedError(c, notFound(c.req.param('id')));
    return c.json(JSON.parse(found) as object, 200, await currentLimitHeaders(c));
  })
  .delete('/responses/:id', async (c) => {
    const id = c.req.param('id');
    if (!(await responseStoreFor(c.env, c.get('key').keyId).remove(id))) throw await limitedError(c, notFound(id));
    return c.json({ id, object: 'response', deleted: true }, 200, await currentLimitHeaders(c));
  });

function notFound(id: string): ApiError {
  return new ApiError({
    status: 404,
    message: `Response with id '${id}' not found.`,
    type: 'invalid_request_error',
    param: 'response_id',
    code: 'not_found',
  });
}
