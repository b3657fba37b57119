import { SELF } from 'cloudflare:test';
import { expect, vi } from 'vitest';
import { buildEnvelope, serializeEnvelope, type EnvelopeInput } from '../../../lib/envelope/index.ts';
import { Identity } from '../../../lib/identity/index.ts';
import { CHAT_PROTOCOL, type AnalysisResultMessage } from '../../../schemas/messages.ts';
import type { FakeNetwork } from './fake-network.ts';

export const ROUTER = Identity.fromSeed('router-dev-seed', 0);
export const SPECIALIST = Identity.fromSeed('router-test-specialist', 0);

export const analysis = (text: string): AnalysisResultMessage => ({
  analysis_result: { analysis: [{ role: 'message', name: 'Filings analyst', content: text }] },
});

export const sendRequest = (body: unknown) =>
  SELF.fetch('http://router.test/api/send-request', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

/**
 * Asks the router a question through its API, as a client that names it with `clientRequestId` or (without
 * one) as an old client, and returns the request id once the specialist got it.
 */
export async function ask(network: FakeNetwork, input = 'What did Apple earn?', clientRequestId?: string): Promise<string> {
  const response = await sendRequest({ input, request_id: clientRequestId });
  expect(response.status).toBe(200);
  const { request_id: requestId } = (await response.json()) as { request_id: string };
  await vi.waitFor(() => expect(network.delivered.some((d) => d.envelope.session === requestId)).toBe(true));
  return requestId;
}

/** A reply envelope signed by `sender` (the specialist unless given), as the specialist would send it. */
export function reply(session: string, payload: unknown, overrides: Partial<EnvelopeInput> = {}) {
  return buildEnvelope({
    sender: SPECIALIST,
    target: ROUTER.address,
    session,
    schemaDigest: CHAT_PROTOCOL.schemaDigest,
    payload,
    expires: Math.floor(Date.now() / 1000) + 60,
    nonce: BigInt(Date.now()) * 1000n + BigInt(Math.floor(Math.random() * 1000)),
    ...overrides,
  });
}

export const postWebhook = (body: string) =>
  SELF.fetch('http://router.test/webhook', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });

export const deliver = (envelope: ReturnType<typeof reply>) => postWebhook(serializeEnvelope(envelope));

/** GET /api/get-response, for `requestId` (else the global slot), held up to `wait` seconds when given. */
export function poll(requestId?: string, wait?: number | string) {
  const query = new URLSearchParams();
  if (requestId !== undefined) query.set('request_id', requestId);
  if (wait !== undefined) query.set('wait', String(wait));
  return SELF.fetch(`http://router.test/api/get-response${query.size ? `?${query}` : ''}`);
}
