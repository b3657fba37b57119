import { Hono } from 'hono';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { parseEnvelope, serializeEnvelope, verifyEnvelope, type ReplayGuard } from '../../../../lib/envelope/index.ts';
import { type Attestation, verifyAttestation } from '../../../../lib/registry-client/attestation.ts';
import { interactionRequestSchema, type InteractionResponse, type ProxySubmitResponse } from '../../../../schemas/registry.ts';
import { policyFetch, urlPolicyFromEnv } from '../../../../lib/net/index.ts';
import { agentExists, findAgent } from '../agents/store.ts';
import type { RegistryApp } from '../app.ts';
import { speaksDetail, validateDetail } from '../http/detail.ts';
import { type LimitVerdict, takeFromWindows, type WindowLimit } from '../limits/rate-windows.ts';
import { countOnOwner } from '../shards/count-on-owner.ts';
import { claimOnce } from './store.ts';

const ATTESTATION_MAX_SECONDS = 24 * 60 * 60;

/** `Authorization: Agent <attestation>`: a signed, time-boxed statement that the caller holds an agent's key. */
const requireAttestation = createMiddleware<RegistryApp & { Variables: { attester: Attestation } }>(async (c, next) => {
  const match = /^Agent\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
  if (!match) throw new ApiError({ status: 401, message: 'missing attestation: send Authorization: Agent attr:<payload>:<signature>' });
  const check = verifyAttestation(match[1]!);
  if (!check.ok) throw new ApiError({ status: 401, message: check.message });
  // Its nonce is remembered until it expires: no attestation may ask for longer than a day.
  if (check.validTo > Math.floor(Date.now() / 1000) + ATTESTATION_MAX_SECONDS)
    throw new ApiError({ status: 401, message: 'attestation is valid for more than 24 h; make a shorter one' });
  c.set('attester', check);
  await next();
});

const PROXY_TIMEOUT_MS = 10_000;
const PROXY_PATH = '/v2/agents/proxy/submit';
const ENVELOPE_MAX_BYTES = 1024 * 1024;

/** Relays per sender and per target: a proxy is a sender's convenience, not a way to flood a webhook. */
const PROXY_SENDER_LIMIT: WindowLimit = { name: 'proxy-sender', limit: 20, windowSeconds: 60 };
const PROXY_TARGET_LIMIT: WindowLimit = { name: 'proxy-target', limit: 60, windowSeconds: 60 };

/**
 * Envelope digests already relayed, in D1 beside the attestation nonces: each envelope is delivered once.
 * The relay budgets are taken here, after the signature was verified (a forged envelope spends nobody's
 * budget) and before the digest is claimed (an envelope refused for its rate may come again later).
 */
function budgetedReplayGuard(
  db: D1Database,
  envelope: { sender: string; target: string },
  refused: { verdict?: LimitVerdict },
): ReplayGuard {
  return {
    claim: async (digestHex, until) => {
      const verdict = await takeFromWindows(db, [
        { limit: PROXY_SENDER_LIMIT, key: envelope.sender },
        { limit: PROXY_TARGET_LIMIT, key: envelope.target },
      ]);
      if (!verdict.ok) {
        refused.verdict = verdict;
        return 'in_progress';
      }
      return (await claimOnce(db, `envelope:${digestHex}`, envelope.sender, Math.ceil(until))) ? 'claimed' : 'replayed';
    },
  };
}

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
    const shards = c.var.shards();
    if (!(await agentExists(shards.owner(request.target), request.target)))
      throw new ApiError({
        status: 404,
        message: `target ${request.target} is not registered`,
      });
    if (!(await claimOnce(c.env.DB, `attestation:${attestation.nonceHex}`, attestation.address, attestation.validTo + 60))) {
      throw new ApiError({ status: 409, message: 'this attestation was already used: each one counts once' });
    }
    const counts = await countOnOwner(shards, request.target, source, request.session_id ?? null, 'attested');
    const body: InteractionResponse = { target: request.target, ...counts };
    return c.json(body);
  });

  /**
   * Relays only what was verified: the envelope re-serialised from its parsed, signed fields, to a webhook
   * the URL policy allows, without following redirects. The sender learns the target's status, never its
   * answer (the proxy must not be a way to read other agents' webhooks).
   */
  const envelopeLimit = bodyLimit({
    maxSize: ENVELOPE_MAX_BYTES,
    onError: () => {
      throw new ApiError({ status: 413, message: 'envelope is larger than 1 MiB' });
    },
  });
  app.post('/proxy/submit', envelopeLimit, async (c) => {
    const parsed = parseEnvelope(await c.req.text());
    if (!parsed.ok) throw new ApiError({ status: 406, message: `malformed envelope: ${parsed.message}` });
    const { envelope } = parsed;
    const shards = c.var.shards();
    const target = await findAgent(shards.owner(envelope.target), envelope.target);
    if (!target?.url) throw new ApiError({ status: 404, message: `target ${envelope.target} has no registered webhook url` });
    const destination = new URL(target.url);
    if (destination.pathname === PROXY_PATH)
      throw new ApiError({ status: 409, message: 'the target registered this proxy as its own webhook url' });
    const refused: { verdict?: LimitVerdict } = {};
    const verdict = await verifyEnvelope(envelope, { self: envelope.target, replay: budgetedReplayGuard(c.env.DB, envelope, refused) });
    if (refused.verdict && !refused.verdict.ok) {
      const whose = refused.verdict.limit === PROXY_SENDER_LIMIT ? 'this sender' : 'this target';
      throw new ApiError({
        status: 429,
        message: `too many relays for ${whose}; at most ${refused.verdict.limit.limit} a minute`,
        headers: { 'retry-after': String(refused.verdict.retryAfterSeconds) },
      });
    }
    if (!verdict.ok) throw new ApiError({ status: verdict.reason === 'replayed' ? 409 : 401, message: verdict.message });
    let sent: Awaited<ReturnType<typeof policyFetch>>;
    try {
      sent = await policyFetch(
        target.url,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: serializeEnvelope(envelope),
          signal: AbortSignal.timeout(PROXY_TIMEOUT_MS),
        },
        { policy: urlPolicyFromEnv(c.env.ALLOW_PRIVATE_URLS) },
      );
    } catch (error) {
      console.warn('proxy: target webhook did not answer', envelope.target, error);
      throw new ApiError({ status: 502, message: 'the target webhook did not answer' });
    }
    if (!sent.ok)
      throw new ApiError({
        status: 409,
        message: 'the target webhook is not an address this registry relays to (private, loopback or not http)',
      });
    await sent.response.body?.cancel();
    const { status } = sent.response;
    const delivered = status >= 200 && status < 300;
    if (delivered) await countOnOwner(shards, envelope.target, envelope.sender, envelope.session ?? null, 'proxy');
    const body: ProxySubmitResponse = {
      delivered,
      target: envelope.target,
      status,
      detail: delivered ? 'delivered' : `the target webhook answered ${status}`,
    };
    return c.json(body, delivered ? 200 : 502);
  });

  return app;
}
