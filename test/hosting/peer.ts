import { createExecutionContext, env, SELF } from 'cloudflare:test';
import { z } from 'zod';
import { defineAgent, model } from '../../lib/agent/index.ts';
import { buildEnvelope, serializeEnvelope } from '../../lib/envelope/index.ts';
import type { Identity } from '../../lib/identity/index.ts';

/** The greeter's models, declared again on the TypeScript side: same titles and fields, same digests. */
export const Greeting = model('Greeting', z.object({ text: z.string() }));
export const Reply = model('Reply', z.object({ text: z.string(), count: z.number() }));

/**
 * A TypeScript agent (lib/agent) outside the platform: it resolves hosted agents through the registry's
 * almanac and reaches them at the registry's submit URL, as any agent on the network does.
 */
const peer = defineAgent<Cloudflare.Env>({
  name: 'ts-peer',
  title: 'TypeScript peer',
  readme: '# TypeScript peer\n',
  settings: (bindings) => ({
    seed: 'hosting test TypeScript peer',
    webhookUrl: 'http://peer.test/webhook',
    registryUrl: 'http://registry.test',
    replayLedger: bindings.REPLAY_LEDGER as never,
    outbox: bindings.HOSTING_OUTBOX as never,
    allowPrivateUrls: true,
    fetch: (input, init) => bindings.REGISTRY_API.fetch(new Request(input, init)),
  }),
});

export const peerContext = () => peer.context(env, createExecutionContext());

/** A signed envelope to `target` from `identity`, as its wire text. */
export function envelopeText(
  identity: Identity,
  target: string,
  schemaDigest: string,
  payload: unknown,
  session = crypto.randomUUID(),
): string {
  return serializeEnvelope(
    buildEnvelope({
      sender: identity,
      target,
      session,
      schemaDigest,
      payload,
      expires: Math.floor(Date.now() / 1000) + 600,
      nonce: Date.now(),
    }),
  );
}

/** Posts an envelope's text to the hosting Worker's submit URL, as a sender's runtime does. */
export const submit = (text: string) =>
  SELF.fetch('http://hosting.test/v1/hosting/submit', { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });

/** Submits `payload` from `sender` to a hosted agent at the submit URL: the answer's status and how long it took. */
export async function timedSubmit(
  sender: Identity,
  address: string,
  payload: unknown,
  schemaDigest = Greeting.digest,
): Promise<{ status: number; ms: number }> {
  const started = Date.now();
  const response = await submit(envelopeText(sender, address, schemaDigest, payload));
  await response.body?.cancel();
  return { status: response.status, ms: Date.now() - started };
}
