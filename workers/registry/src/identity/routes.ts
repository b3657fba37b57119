import { type Context, Hono } from 'hono';
import { ApiError } from '../../../../lib/http/api-error.ts';
import {
  addressParamSchema,
  type ChallengeResponse,
  challengeRequestSchema,
  identityProofSchema,
  type IdentityResponse,
} from '../../../../schemas/registry.ts';
import type { RegistryApp } from '../app.ts';
import { speaksDetail, validateDetail } from '../http/detail.ts';
import { requireKey } from '../keys/require-key.ts';
import { issueChallenge, proveIdentity } from './ownership.ts';

/**
 * Proof of address ownership, as uagents-core performs it: `GET /v2/identity/{address}/challenge`, then
 * `POST /v2/identity` with the signed challenge. `v1` holds the older SDKs' `/v1/auth/challenge` and
 * `/v1/auth/prove` (same semantics, address in the body).
 */
export function identityRoutes() {
  const v2 = new Hono<RegistryApp>();
  const v1 = new Hono<RegistryApp>();
  const writeKey = requireKey('write');
  for (const app of [v1, v2]) app.use('*', speaksDetail);

  const challenge = async (c: Context<RegistryApp>, address: string) => {
    const outcome = await issueChallenge(c.env.DB, address, c.get('key').accountId);
    if (!outcome.ok) {
      const headers = outcome.status === 429 ? { 'retry-after': String(outcome.retryAfterSeconds) } : undefined;
      throw new ApiError({ status: outcome.status, message: outcome.detail, headers });
    }
    const body: ChallengeResponse = { challenge: outcome.challenge };
    return c.json(body);
  };

  v2.get('/:address/challenge', writeKey, validateDetail('param', addressParamSchema), (c) => challenge(c, c.req.valid('param').address));
  v1.post('/challenge', writeKey, validateDetail('json', challengeRequestSchema), (c) => challenge(c, c.req.valid('json').address));

  for (const [app, path] of [
    [v2, '/'],
    [v1, '/prove'],
  ] as const) {
    app.post(path, writeKey, validateDetail('json', identityProofSchema), async (c) => {
      const outcome = await proveIdentity(c.env.DB, c.req.valid('json'), c.get('key').accountId);
      if (!outcome.ok) throw new ApiError({ status: outcome.status, message: outcome.detail });
      const body: IdentityResponse = { address: outcome.address };
      return c.json(body);
    });
  }
  return { v1, v2 };
}
