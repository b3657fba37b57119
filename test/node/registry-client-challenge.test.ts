import { describe, expect, it } from 'vitest';
import { buildEnvelope, envelopeDigest, MemoryReplayGuard, serializeEnvelope, verifyEnvelope } from '../../lib/envelope/index.ts';
import { Identity } from '../../lib/identity/index.ts';
import { registerAgent, RegistryError } from '../../lib/registry-client/index.ts';

const SEED = 'challenge oracle test seed';

/** A registry that answers the lookup with 404 and the challenge request with `challenge`, recording every call. */
function registry(challenge: string) {
  const calls: { url: string; body: string | null }[] = [];
  const fake: typeof fetch = async (input, init) => {
    const url = String(input);
    calls.push({ url, body: typeof init?.body === 'string' ? init.body : null });
    if (url.endsWith('/challenge')) return Response.json({ challenge });
    if (url.includes('/v2/agents/agent1')) return new Response('{"detail":"not found"}', { status: 404 });
    return new Response('{"detail":"stop here"}', { status: 418 });
  };
  return { calls, fetch: fake };
}

const options = (fake: typeof fetch) => ({
  seed: SEED,
  url: 'https://a.example.com/hook',
  token: 't',
  title: 'A',
  readme: '# A',
  registryUrl: 'https://registry.example',
  fetch: fake,
});

describe('registerAgent signs only the registry’s documented challenge form', () => {
  it('refuses a challenge that is an envelope’s signed text, so a hostile registry cannot get an envelope signed', async () => {
    const victim = Identity.fromSeed(SEED, 0);
    const forged = buildEnvelope({
      sender: victim,
      target: Identity.fromSeed('someone', 0).address,
      schemaDigest: 'model:x',
      payload: { pay: 1000 },
    });
    // The signed text of an envelope without expires and nonce: what sign(challenge) would hash.
    const preimage = forged.sender + forged.target + forged.session + forged.schema_digest + (forged.payload ?? '');
    expect(envelopeDigest(forged)).toEqual(envelopeDigest({ ...forged, expires: null, nonce: null }));
    const net = registry(preimage);
    await expect(registerAgent(options(net.fetch))).rejects.toThrow(RegistryError);
    const proof = net.calls.find((call) => call.url.endsWith('/v2/identity'));
    expect(proof, 'no signature was sent').toBeUndefined();

    // What the signature would have been worth: a valid envelope signature.
    const signature = victim.sign(preimage);
    const verdict = await verifyEnvelope({ ...forged, signature }, { self: forged.target, replay: new MemoryReplayGuard() });
    expect(verdict.ok).toBe(true);
    expect(serializeEnvelope(forged)).toContain(forged.sender);
  });

  it.each(['anything', 'rendezvous:', `rendezvous:${crypto.randomUUID()}`, `x-rendezvous:${crypto.randomUUID()}:${crypto.randomUUID()}`])(
    'refuses %j',
    async (challenge) => {
      const net = registry(challenge);
      await expect(registerAgent(options(net.fetch))).rejects.toMatchObject({ step: 'challenge' });
      expect(net.calls.some((call) => call.url.endsWith('/v2/identity'))).toBe(false);
    },
  );

  it('signs a challenge of the documented form', async () => {
    const net = registry(`rendezvous:${crypto.randomUUID()}:${crypto.randomUUID()}`);
    await expect(registerAgent(options(net.fetch))).rejects.toMatchObject({ step: 'identity proof' });
    expect(net.calls.some((call) => call.url.endsWith('/v2/identity'))).toBe(true);
  });
});
