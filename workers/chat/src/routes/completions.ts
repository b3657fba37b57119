import { Hono } from 'hono';
import { validate } from '../../../../lib/http/validate.ts';
import { CHAT_MAX_BODY_BYTES, ChatCompletionRequest } from '../../../../schemas/chat.ts';
import type { ChatApp } from '../auth/require-key.ts';
import { requestedBudget } from '../completion/budget.ts';
import { collectCompletion } from '../completion/json-response.ts';
import { type StartedCompletion, startCompletion } from '../completion/start.ts';
import { streamCompletion } from '../completion/stream-response.ts';
import { limitedError } from './respond.ts';

/** The body, over CHAT_MAX_BODY_BYTES refused from Content-Length or as it streams in: never read whole. */
const validRequest = validate('json', ChatCompletionRequest, undefined, CHAT_MAX_BODY_BYTES);

/** The completion as server-sent chunks, metered when the stream ends however it ends. */
function streamed(run: StartedCompletion, includeUsage: boolean, background: (work: Promise<unknown>) => void): Response {
  const body = streamCompletion(run.events, run.context, run.promptTokens, run.upstream, run.settle, background, includeUsage);
  return new Response(body, {
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...run.headers },
  });
}

/** POST /v1/chat/completions: validate, start the completion (completion/start.ts), answer as one object or as a stream. */
export const completions = new Hono<ChatApp>().post('/chat/completions', validRequest, async (c) => {
  const request = c.req.valid('json');
  const run = await startCompletion(c, { request, budget: requestedBudget(request), messagesParam: 'messages' });
  if (request.stream) return streamed(run, request.stream_options?.include_usage === true, (work) => c.executionCtx.waitUntil(work));
  try {
    const { body, tally } = await collectCompletion(run.events, run.context, run.promptTokens);
    await run.settle(tally);
    return c.json(body, 200, run.headers);
  } catch (error) {
    await run.release();
    throw await limitedError(c, error, run.limitState);
  }
});
