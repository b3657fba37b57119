import { setTimeout as sleep } from 'node:timers/promises';
import { analysisResultMessageSchema, type AnalysisResultMessage } from '../../../schemas/messages.ts';
import { requestSentSchema } from '../../../schemas/router-api.ts';

let users = 0;

/**
 * POST /api/send-request as the client does; returns the raw response. Each call is a user of its own
 * (its own CF-Connecting-IP), as the router limits questions per client.
 */
export function sendRequest(routerUrl: string, input: string): Promise<Response> {
  users += 1;
  return fetch(`${routerUrl}/api/send-request`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': `10.2.${(users >> 8) & 255}.${users & 255}` },
    body: JSON.stringify({ input }),
  });
}

/** Sends a question and returns its request id; fails unless the router accepted it. */
export async function ask(routerUrl: string, input: string): Promise<string> {
  const response = await sendRequest(routerUrl, input);
  if (response.status !== 200) throw new Error(`send-request answered ${response.status}: ${await response.text()}`);
  return requestSentSchema.parse(await response.json()).request_id;
}

/** Polls like the client (every `intervalMs`) until the answer is there; tolerates a router that is down. */
export async function waitForAnswer(
  routerUrl: string,
  requestId: string,
  { intervalMs = 1000, timeoutMs = 120_000 } = {},
): Promise<AnalysisResultMessage> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const response = await fetch(`${routerUrl}/api/get-response?request_id=${requestId}`).catch(() => undefined);
    if (response?.ok) {
      const body = analysisResultMessageSchema.safeParse(await response.json());
      if (body.success) return body.data;
    } else if (response) {
      throw new Error(`get-response answered ${response.status}: ${await response.text()}`);
    }
    await sleep(intervalMs);
  }
  throw new Error(`no answer to ${requestId} within ${timeoutMs / 1000} s`);
}
