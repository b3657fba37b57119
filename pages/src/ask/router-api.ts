import { z } from 'zod';
import { analysisResultMessageSchema, waitingSchema } from '../../../schemas/messages.ts';
import { requestSentSchema, routerErrorSchema, type sendRequestBodySchema } from '../../../schemas/router-api.ts';
import { POLL_LIMITS, type PollOutcome } from './poller.ts';
import { ROUTER_URL } from './router-config.ts';

export type SendOutcome =
  | { kind: 'sent'; requestId: string }
  | { kind: 'no_specialist'; message: string }
  | { kind: 'error'; message: string };

const pollBodySchema = z.union([waitingSchema, analysisResultMessageSchema]);

/** The router's error body (`{error: string, code, param}`), or a plain status when it sent something else. */
async function errorMessage(response: Response): Promise<string> {
  const body = routerErrorSchema.safeParse(await response.json().catch(() => null));
  return body.success ? body.data.error : `the router answered ${response.status}`;
}

/** The client names each question with a new UUID: the router then answers it only in that request's own slot. */
export async function sendRequest(input: string): Promise<SendOutcome> {
  const body: z.input<typeof sendRequestBodySchema> = { input, request_id: crypto.randomUUID() };
  const response = await fetch(`${ROUTER_URL}/api/send-request`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status === 404) return { kind: 'no_specialist', message: await errorMessage(response) };
  if (!response.ok) return { kind: 'error', message: await errorMessage(response) };
  const sent = requestSentSchema.safeParse(await response.json());
  if (!sent.success) return { kind: 'error', message: 'the router answered without a request id' };
  return { kind: 'sent', requestId: sent.data.request_id };
}

export async function getResponse(requestId: string, signal: AbortSignal): Promise<PollOutcome> {
  const url = `${ROUTER_URL}/api/get-response?request_id=${encodeURIComponent(requestId)}&wait=${POLL_LIMITS.waitSeconds}`;
  const response = await fetch(url, { signal });
  if (!response.ok) return { kind: 'error', message: await errorMessage(response) };
  const body = pollBodySchema.safeParse(await response.json());
  if (!body.success) return { kind: 'error', message: 'the router answered with an unexpected payload' };
  if ('status' in body.data) return { kind: 'waiting' };
  return { kind: 'answered', analysis: body.data.analysis_result.analysis };
}
