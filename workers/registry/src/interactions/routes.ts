import { Hono } from 'hono';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { createMiddleware } from 'hono/factory';
import { parseEnvelope, verifyEnvelope, type ReplayGuard } from '../../../../lib/envelope/index.ts';
import { type Attestation, verifyAttestation } from '../../../../lib/registry-client/attestation.ts';
import { interactionRequestSchema, type InteractionResponse, type ProxySubmitResponse } from '../../../../schemas/registry.ts';
import { isPrivateOrLoopbackUrl } from '../../../../lib/net/index.ts';
import { findAgent } from '../agents/store.ts';
import type { RegistryApp } from '../app.ts';
import { speaksDetail, validateDetail } from '../http/detail.ts';
import { claimOnce, countInteraction } from './store.ts';

/** `Authorization: Agent <attestation>`: a signed, time-boxed statement that the caller holds an agent's key. */
const requireAttestation = createMiddleware<RegistryApp & { Variables: { attester: Attestation } }>(async (c, next) => {
  const match = /^Agent\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
  if (!match) throw new ApiError({ status: 401, message: 'missing attestation: send Authorization: Agent attr:<payload>:<signature>' });
  const check = verifyAttestation(match[1]!);
  if (!check.ok) throw new ApiError({ status: 401, message: check.message });
  c.set('attester', check);
  await next();
});

const PROXY_TIMEOUT_MS = 10_000;
const PROXY_PATH = '/v2/agents/proxy/submit';
const ENVELOPE_MAX_BYTES = 1024 * 1024;

/** Envelope digests already relayed, in D1 beside the attestation nonces: each envelope is delivered once. */
const d1ReplayGuard = (db: D1Database, sender: string): ReplayGuard => ({
  claim: async (digestHex, until) => ((await claimOnce(db, `envelope:${digestHex}`, sender, Math.ceil(until))) ? 'claimed' : 'replayed'),
});

/**
 * Interaction counting. `POST /v2/agents/interactions` takes `Authorization: Agent <attestation>` from the
 * source or the target of the interaction (each attestation counts once); `POST /v2/agents/proxy/submit`
 * relays a signed envelope to its target's webhook and counts it (the SDKs register this path as their
 * endpoint when they track interactions).
 */
export function interactionRoutes() {
  const app = new Hono<RegistryApp>();
  app.use('*', speaksDetail);

  app.post('/interactions', requireAttestation, validateDetail('json', interactionRequestSchema), async (c) => {
    const attestation = c.get('attester');
    const request = c.req.valid('json');
    const source = request.source ?? attestation.address;
    if (attestation.address !== source && attestation.address !== request.target) {
      throw new ApiError({ status: 403, message: `the attestation is ${attestation.address}'s, who is neither the source nor the target` });
    }
    if (!(await findAgent(c.env.DB, request.target))) throw new ApiError({
      status: 404,
      message: `target ${request.target} is not registered`,
    });
    if (!(await claimOnce(c.env.DB, `attestation:${attestation.nonceHex}`, attestation.address, attestation.validTo + 60))) {
      throw new ApiError({ status: 409, message: 'this attestation was already used: each one counts once' });
    }
    const counts = await countInteraction(c.env.DB, request.target, source, request.session_id ?? null, 'attested');
    const body: InteractionResponse = { counted: true, target: request.target, ...counts };
    return c.json(body);
  });

  app.post('/proxy/submit', async (c) => {
    const text = await c.req.text();
    if (text.length > ENVELOPE_MAX_BYTES) throw new ApiError({ status: 413, message: 'envelope is larger than 1 MiB' });
    const parsed = parseEnvelope(text);
    if (!parsed.ok) throw new ApiError({ status: 406, message: `malformed envelope: ${parsed.message}` });
    const { envelope } = parsed;
    const target = await findAgent(c.env.DB, envelope.target);
    if (!target?.url) throw new ApiError({ status: 404, message: `target ${envelope.target} has no registered webhook url` });
    const destination = new URL(target.url);
    if (destination.pathname === PROXY_PATH) throw new ApiError({
      status: 409,
      message: 'the target registered this proxy as its own webhook url',
    });
    if (isPrivateOrLoopbackUrl(target.url) && c.env.ALLOW_PRIVATE_URLS !== 'true') throw new ApiError({
      status: 409,
      message: 'the target webhook is on a private network; this registry does not relay there',
    });
    const verdict = await verifyEnvelope(envelope, { self: envelope.target, replay: d1ReplayGuard(c.env.DB, envelope.sender) });
    if (!verdict.ok) throw new ApiError({ status: verdict.reason === 'replayed' ? 409 : 401, message: verdict.message });
    let response: Response;
    try {
      response = await fetch(target.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text, signal: AbortSignal.timeout(PROXY_TIMEOUT_MS) });
    } catch (error) {
      throw new ApiError({ status: 502, message: `the target webhook did not answer: ${(error as Error).message}` });
    }
    const answer = (await response.text()).slice(0, 2000);
    if (response.ok) await countInteraction(c.env.DB, envelope.target, envelope.sender, envelope.session ?? null, 'proxy');
    const body: ProxySubmitResponse = { delivered: response.ok, target: envelope.target, status: response.status, detail: answer };
    return c.json(body, response.ok ? 200 : 502);
  });

  return app;
}
