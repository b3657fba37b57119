import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { parseEnvelope, verifyEnvelope, type ReplayGuard } from '../../../../lib/envelope/index.ts';
import { type Attestation, verifyAttestation } from '../../../../lib/registry-client/attestation.ts';
import { interactionRequestSchema, type InteractionResponse, type ProxySubmitResponse } from '../../../../schemas/registry.ts';
import { isPrivateOrLoopbackUrl } from '../../../../lib/net/index.ts';
import { findAgent } from '../agents/store.ts';
import type { RegistryApp } from '../app.ts';
import { detail, detailOnError, validateDetail } from '../http/detail.ts';
import { claimOnce, countInteraction } from './store.ts';

/** `Authorization: Agent <attestation>`: a signed, time-boxed statement that the caller holds an agent's key. */
const requireAttestation = createMiddleware<RegistryApp & { Variables: { attester: Attestation } }>(async (c, next) => {
  const match = /^Agent\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
  if (!match) return detail(c, 401, 'missing attestation: send Authorization: Agent attr:<payload>:<signature>');
  const check = verifyAttestation(match[1]!);
  if (!check.ok) return detail(c, 401, check.message);
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
  app.onError(detailOnError);

  app.post('/interactions', requireAttestation, validateDetail('json', interactionRequestSchema), async (c) => {
    const attestation = c.get('attester');
    const request = c.req.valid('json');
    const source = request.source ?? attestation.address;
    if (attestation.address !== source && attestation.address !== request.target) {
      return detail(c, 403, `the attestation is ${attestation.address}'s, who is neither the source nor the target`);
    }
    if (!(await findAgent(c.env.DB, request.target))) return detail(c, 404, `target ${request.target} is not registered`);
    if (!(await claimOnce(c.env.DB, `attestation:${attestation.nonceHex}`, attestation.address, attestation.validTo + 60))) {
      return detail(c, 409, 'this attestation was already used: each one counts once');
    }
    const counts = await countInteraction(c.env.DB, request.target, source, request.session_id ?? null, 'attested');
    const body: InteractionResponse = { target: request.target, ...counts };
    return c.json(body);
  });

  app.post('/proxy/submit', async (c) => {
    const text = await c.req.text();
    if (text.length > ENVELOPE_MAX_BYTES) return detail(c, 413, 'envelope is larger than 1 MiB');
    const parsed = parseEnvelope(text);
    if (!parsed.ok) return detail(c, 406, `malformed envelope: ${parsed.message}`);
    const { envelope } = parsed;
    const target = await findAgent(c.env.DB, envelope.target);
    if (!target?.url) return detail(c, 404, `target ${envelope.target} has no registered webhook url`);
    const destination = new URL(target.url);
    if (destination.pathname === PROXY_PATH) return detail(c, 409, 'the target registered this proxy as its own webhook url');
    if (isPrivateOrLoopbackUrl(target.url) && c.env.ALLOW_PRIVATE_URLS !== 'true') return detail(c, 409, 'the target webhook is on a private network; this registry does not relay there');
    const verdict = await verifyEnvelope(envelope, { self: envelope.target, replay: d1ReplayGuard(c.env.DB, envelope.sender) });
    if (!verdict.ok) return detail(c, verdict.reason === 'replayed' ? 409 : 401, verdict.message);
    let response: Response;
    try {
      response = await fetch(target.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text, signal: AbortSignal.timeout(PROXY_TIMEOUT_MS) });
    } catch (error) {
      return detail(c, 502, `the target webhook did not answer: ${(error as Error).message}`);
    }
    const answer = (await response.text()).slice(0, 2000);
    if (response.ok) await countInteraction(c.env.DB, envelope.target, envelope.sender, envelope.session ?? null, 'proxy');
    const body: ProxySubmitResponse = { delivered: response.ok, target: envelope.target, status: response.status, detail: answer };
    return c.json(body, response.ok ? 200 : 502);
  });

  return app;
}
