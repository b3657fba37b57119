import { SELF } from 'cloudflare:test';
import { buildEnvelope, serializeEnvelope, type EnvelopeInput } from '../../../lib/envelope/index.ts';
import { Identity } from '../../../lib/identity/index.ts';
import { CHAT_PROTOCOL } from '../../../schemas/messages.ts';
import { ROUTER } from './fake-network.ts';

export const SPECIALIST = Identity.fromSeed('specialist-dev-seed', 0);

let nonce = BigInt(Date.now()) * 1000n;

/** A request envelope signed by the router (seed 'router-dev-seed'), as the router sends it. */
export function requestEnvelope(payload: unknown, overrides: Partial<EnvelopeInput> = {}) {
  return buildEnvelope({
    sender: ROUTER,
    target: SPECIALIST.address,
    session: crypto.randomUUID(),
    schemaDigest: CHAT_PROTOCOL.schemaDigest,
    payload,
    expires: Math.floor(Date.now() / 1000) + 300,
    nonce: nonce++,
    ...overrides,
  });
}

export const postWebhook = (body: string) =>
  SELF.fetch('http://specialist.test/webhook', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });

export const send = (envelope: ReturnType<typeof requestEnvelope>) => postWebhook(serializeEnvelope(envelope));
