import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildEnvelope, schemaDigest, serializeEnvelope, type EnvelopeInput } from '../../lib/envelope/index.ts';
import { Identity } from '../../lib/identity/index.ts';
import { CHAT_PROTOCOL } from '../../schemas/messages.ts';
import { Ping } from './fixture/models.ts';
import { addressOf, errorOf, events, post } from './helpers.ts';

const ALICE = Identity.fromSeed('agent-runtime fixture alice', 0);
const MALLORY = Identity.fromSeed('mallory', 0);
const now = () => Math.floor(Date.now() / 1000);

function envelope(overrides: Partial<EnvelopeInput> & { target: string }): string {
  return serializeEnvelope(
    buildEnvelope({
      sender: ALICE,
      schemaDigest: Ping.digest,
      payload: { text: 'hi', seq: 0 },
      expires: now() + 60,
      nonce: Date.now(),
      session: crypto.randomUUID(),
      ...overrides,
    }),
  );
}

async function refusal(path: string, body: string) {
  const response = await post(path, body);
  return { status: response.status, error: errorOf(await response.json()) };
}

describe('the webhook verifies before any handler runs', () => {
  it('takes a well-signed envelope of a declared model', async () => {
    const session = crypto.randomUUID();
    const response = await post('/bob/webhook', envelope({ target: await addressOf('bob'), session }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'success' });
    expect((await events({ agent: 'bob', kind: 'received', session })).map((event) => event.sender)).toEqual([ALICE.address]);
  });

  it('refuses a forged envelope: signed by someone else in the sender’s name, or altered after signing', async () => {
    const bob = await addressOf('bob');
    const forged = buildEnvelope({
      sender: MALLORY,
      target: bob,
      schemaDigest: Ping.digest,
      payload: { text: 'trust me', seq: 0 },
      expires: now() + 60,
    });
    forged.sender = ALICE.address;
    expect(await refusal('/bob/webhook', serializeEnvelope(forged))).toMatchObject({
      status: 401,
      error: { type: 'invalid_envelope', code: 'bad_signature' },
    });

    const altered = JSON.parse(envelope({ target: bob })) as { payload: string };
    altered.payload = btoa(JSON.stringify({ text: 'changed', seq: 1 }));
    expect(await refusal('/bob/webhook', JSON.stringify(altered))).toMatchObject({ status: 401, error: { code: 'bad_signature' } });
  });

  it('refuses an expired envelope', async () => {
    expect(await refusal('/bob/webhook', envelope({ target: await addressOf('bob'), expires: now() - 5 }))).toMatchObject({
      status: 400,
      error: { code: 'expired' },
    });
  });

  it('refuses a replayed envelope', async () => {
    const body = envelope({ target: await addressOf('bob') });
    expect((await post('/bob/webhook', body)).status).toBe(200);
    expect(await refusal('/bob/webhook', body)).toMatchObject({
      status: 409,
      error: { code: 'replayed', message: 'envelope was already received' },
    });
  });

  it('refuses an envelope addressed to another agent', async () => {
    const session = crypto.randomUUID();
    const refused = await refusal('/bob/webhook', envelope({ target: await addressOf('carol'), session }));
    expect(refused).toMatchObject({ status: 403, error: { code: 'wrong_target' } });
    expect(refused.error.message).toContain(await addressOf('carol'));
    expect(await events({ session })).toEqual([]);
  });

  it('refuses a model the agent did not declare, and a payload that does not fit its model, without crashing', async () => {
    const alice = await addressOf('alice');
    const Unknown = schemaDigest('Unknown', z.object({ anything: z.string() }));
    expect(
      await refusal(
        '/alice/webhook',
        envelope({ sender: Identity.fromSeed('someone', 0), target: alice, schemaDigest: Unknown, payload: { anything: 'x' } }),
      ),
    ).toMatchObject({
      status: 400,
      error: { code: 'unknown_schema' },
    });
    const invalid = await refusal(
      '/alice/webhook',
      envelope({ sender: Identity.fromSeed('someone', 0), target: alice, payload: { text: 42 } }),
    );
    expect(invalid).toMatchObject({ status: 400, error: { code: 'invalid_payload' } });
    expect(invalid.error.message).toContain('Ping');
  });

  it('refuses what is not an envelope', async () => {
    expect(await refusal('/bob/webhook', '{not json')).toMatchObject({ status: 400, error: { code: 'malformed_envelope' } });
    expect(await refusal('/bob/webhook', JSON.stringify({ sender: 'x' }))).toMatchObject({
      status: 400,
      error: { code: 'malformed_envelope' },
    });
    expect(await refusal('/bob/webhook', 'x'.repeat(1024 * 1024 + 1))).toMatchObject({ status: 413 });
  });
});

describe('plain JSON payloads by shape (the Python fetchai SDK)', () => {
  // What fetchai's send_message_to_agent sends: chat-protocol digests whatever the payload, no expiry, no nonce.
  const python = (target: string, payload: unknown, session = crypto.randomUUID()) =>
    envelope({
      sender: Identity.fromSeed('a python agent', 0),
      target,
      session,
      schemaDigest: CHAT_PROTOCOL.schemaDigest,
      protocolDigest: CHAT_PROTOCOL.protocolDigest,
      payload,
      expires: null,
      nonce: null,
    });

  it('bob takes a payload of the shape he declared, whatever its schema digest, and answers with his handler’s object', async () => {
    const session = crypto.randomUUID();
    const response = await post('/bob/webhook', python(await addressOf('bob'), { request: 'What did ACME file last quarter?' }, session));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'received', length: 32 });
    const [event] = await events({ agent: 'bob', session });
    expect(event).toMatchObject({
      model: 'request-shape',
      sender: Identity.fromSeed('a python agent', 0).address,
      payload: { request: 'What did ACME file last quarter?' },
    });
  });

  it('a payload of no declared shape is refused, and refusing it does not burn the envelope', async () => {
    const body = python(await addressOf('bob'), { question: 'wrong key' });
    expect(await refusal('/bob/webhook', body)).toMatchObject({ status: 400, error: { code: 'unknown_schema' } });
    expect(await refusal('/bob/webhook', body)).toMatchObject({ status: 400, error: { code: 'unknown_schema' } });
  });

  it('carol, who declared no shapes and no chat handler, refuses chat-protocol messages', async () => {
    expect(await refusal('/carol/webhook', python(await addressOf('carol'), { request: 'hello' }))).toMatchObject({
      status: 400,
      error: { code: 'unknown_schema' },
    });
  });

  it('alice, who speaks the chat protocol but declared no shapes, refuses a plain payload under its digest as no ChatMessage', async () => {
    const refused = await refusal('/alice/webhook', python(await addressOf('alice'), { request: 'hello' }));
    expect(refused).toMatchObject({ status: 400, error: { code: 'invalid_payload' } });
    expect(refused.error.message).toContain('payload is not a valid ChatMessage');
  });
});
