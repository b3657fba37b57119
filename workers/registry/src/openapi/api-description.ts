import { z } from 'zod';
import { type ApiInfo, type ResponseDescriptor, type RouteDescriptor, SERVICE_ROUTES } from '../../../../lib/openapi/index.ts';
import { PLATFORM_VERSION } from '../../../../lib/http/health.ts';
import { envelopeSchema } from '../../../../schemas/envelope.ts';
import { errorBodySchema } from '../../../../schemas/http.ts';
import { ownAgentsResponseSchema } from '../../../../schemas/own-agents.ts';
import { featuredAgentListSchema, featuredAgentSchema } from '../../../../schemas/featured.ts';
import {
  mailboxDeletedSchema,
  mailboxEnvelopeParamSchema,
  mailboxPageQuerySchema,
  mailboxStatusSchema,
  mailboxSubmitResponseSchema,
  storedEnvelopeSchema,
} from '../../../../schemas/mailbox.ts';
import {
  apiKeySchema,
  createdKeySchema,
  createKeyRequestSchema,
  keyIdParamSchema,
  keyListQuerySchema,
  keyListSchema,
  revokedKeySchema,
  updateKeyRequestSchema,
} from '../../../../schemas/keys.ts';
import {
  addressParamSchema,
  handleParamSchema,
  agentDetailSchema,
  agentStatusUpdateSchema,
  agentUpdateSchema,
  almanacAttestationSchema,
  almanacBatchResponseSchema,
  almanacBatchSchema,
  almanacRecordSchema,
  challengeRequestSchema,
  challengeResponseSchema,
  deletedAgentSchema,
  detailErrorSchema,
  identityProofSchema,
  identityResponseSchema,
  interactionRequestSchema,
  interactionResponseSchema,
  proxySubmitResponseSchema,
  registrationRequestSchema,
  registrationResponseSchema,
  resolveParamSchema,
  statusUpdateResponseSchema,
} from '../../../../schemas/registry.ts';
import {
  agentSearchRequestSchema,
  agentSearchResponseSchema,
  functionSearchRequestSchema,
  functionSearchResponseSchema,
  searchClickRequestSchema,
  searchClickResponseSchema,
} from '../../../../schemas/search.ts';

/**
 * The registry's public API as the OpenAPI document describes it (GET /openapi.json, GET /docs). Each entry
 * names the schemas its route validates and answers with; a route added without an entry here shows up in
 * the document as undocumented, and the e2e test fails on it.
 */
export const REGISTRY_API_INFO: ApiInfo = {
  title: 'Rendezvous registry',
  version: PLATFORM_VERSION,
  description:
    'Agent registry: API keys, agent search with click feedback and function search, and the registration, almanac and interaction endpoints the uAgents / fetchai Python SDKs call. Errors are `{error:{message,type,param,code}}`, except on the SDK-facing endpoints, which answer `{detail}` as the SDKs expect. Read your own writes: a response that read or wrote agents carries `x-d1-bookmark` (D1 Sessions API bookmarks, one per agent shard, comma-separated); send it back on the next request and its reads start from a replica at least that new, so an agent just registered is found at once. Optional; a malformed one is a 400 from every route that reads agents, in its error shape.',
};

const error = (description: string): ResponseDescriptor => ({ description, schema: errorBodySchema });
const detail = (description: string): ResponseDescriptor => ({ description, schema: detailErrorSchema });

const keyErrors = {
  400: error('Invalid body, query or path'),
  401: error('Missing or unknown token: key management needs the admin token or a key with the `keys` permission'),
  403: error('The key may not do this (another account, or an admin-only field)'),
};
const adminErrors = {
  400: error('The address is not an agent address'),
  401: error('No token'),
  403: error('A token other than the deployment’s admin token'),
};
const searchErrors = {
  400: error('Body is not JSON, or a field or filter value is outside the allowed values'),
  401: error('Missing, unknown, expired or revoked key'),
  403: error('The key lacks the `read` permission'),
};
const sdkAuth = {
  401: detail('Missing, unknown, expired or revoked key'),
  403: detail('The key lacks the permission (`write` to change, `read` or `write` to look up)'),
  406: detail('Malformed body or path'),
};

/** The answers of both challenge routes (/v2/identity/{address}/challenge and the older SDKs' /v1/auth/challenge). */
const challengeResponses = {
  200: { description: 'The challenge', schema: challengeResponseSchema },
  ...sdkAuth,
  409: detail('The address is owned by another account'),
  429: detail('The account already holds 50 unused, unexpired challenges (`retry-after` says when one expires)'),
};

const sampleReadme = '# Weather agent\n\nCurrent weather by city.\n\n![tag:weather](https://example.com/badge)';

function agentRoutes(prefix: '/v2/agents' | '/v1/agents', tag: string): RouteDescriptor[] {
  const older = prefix === '/v1/agents' ? ' (older SDK path; same as /v2/agents)' : '';
  return [
    {
      method: 'post',
      path: prefix,
      tag,
      auth: 'bearer',
      summary: `Register an agent, or update its registration${older}`,
      description:
        'Needs a `write` key and proof of the address (identity challenge first, or `challenge` and `challenge_response` inline). The README is stored byte for byte; its badges become tags.',
      body: registrationRequestSchema,
      example: { address: 'agent1q…', name: 'Weather agent', url: 'https://weather.example.com/webhook', readme: sampleReadme },
      responses: {
        200: { description: 'Agent registered (`created: true`) or its registration updated', schema: registrationResponseSchema },
        ...sdkAuth,
        409: detail('The address or handle belongs to another account'),
      },
    },
    {
      method: 'get',
      path: `${prefix}/{address}`,
      tag,
      auth: 'bearer',
      summary: `Look up a registered agent${older}`,
      params: addressParamSchema,
      responses: {
        200: { description: 'The agent and everything its registration stored', schema: agentDetailSchema },
        ...sdkAuth,
        404: detail('No registered agent at this address'),
      },
    },
    {
      method: 'get',
      path: `${prefix}/handles/{handle}`,
      tag,
      auth: 'bearer',
      summary: `Look up the agent that holds a handle${older}`,
      description: 'What `@handle` in a chat names. Visible as the lookup by address: listed agents, and the key’s own unlisted ones.',
      params: handleParamSchema,
      responses: {
        200: { description: 'The agent holding the handle', schema: agentDetailSchema },
        ...sdkAuth,
        404: detail('No agent the key may see holds this handle'),
      },
    },
    ...(['put', 'patch'] as const).map(
      (method): RouteDescriptor => ({
        method,
        path: `${prefix}/{address}`,
        tag,
        auth: 'bearer',
        summary: `Change fields of the caller's agent${older}`,
        params: addressParamSchema,
        body: agentUpdateSchema,
        example: { readme: sampleReadme },
        responses: {
          200: { description: 'Updated', schema: registrationResponseSchema },
          ...sdkAuth,
          404: detail('Agent not registered'),
          409: detail('The agent belongs to another account'),
        },
      }),
    ),
    {
      method: 'delete',
      path: `${prefix}/{address}`,
      tag,
      auth: 'bearer',
      summary: `Delete the caller's agent${older}`,
      params: addressParamSchema,
      responses: {
        200: { description: 'Deleted', schema: deletedAgentSchema },
        ...sdkAuth,
        404: detail('Agent not registered'),
        409: detail('The agent belongs to another account'),
      },
    },
  ];
}

export const REGISTRY_ROUTES: RouteDescriptor[] = [
  ...SERVICE_ROUTES,
  {
    method: 'post',
    path: '/v1/keys',
    tag: 'API keys',
    auth: 'bearer',
    summary: 'Create an API key (the secret is in this response only)',
    description:
      'With the admin token: creates the key in `account_id`, or in a new account when it is absent (the first key of an account). With a key that has the `keys` permission: creates a key in that key’s own account, with a subset of its permissions, its limits (only the admin token sets `limits`) and no later expiry than its own (none given: its own). An account holds at most 25 live keys (403 `too_many_keys`).',
    body: createKeyRequestSchema,
    example: { name: 'my agents', permissions: ['read', 'write', 'chat'] },
    responses: {
      201: { description: 'The new key; `key` is the secret, shown once', schema: createdKeySchema },
      ...keyErrors,
      404: error('No such account'),
    },
  },
  {
    method: 'get',
    path: '/v1/keys',
    tag: 'API keys',
    auth: 'bearer',
    summary: 'List live keys (never their secrets)',
    description: 'The admin token lists every account’s keys (or one account’s with `account_id`); a key lists its own account’s.',
    query: keyListQuerySchema,
    responses: { 200: { description: 'Keys, newest first', schema: keyListSchema }, ...keyErrors },
  },
  {
    method: 'patch',
    path: '/v1/keys/{id}',
    tag: 'API keys',
    auth: 'bearer',
    summary: 'Rename a key or change its chat limits',
    description:
      'Gives `name`, `limits` or both. `limits` replaces the key’s requests and tokens per minute (null: the deployment’s defaults); the chat service applies them from its next request. Only the admin token changes `limits`; a `keys` key may rename.',
    params: keyIdParamSchema,
    body: updateKeyRequestSchema,
    example: { limits: { requests_per_minute: 120, tokens_per_minute: 200000 } },
    responses: {
      200: { description: 'The key as it is now', schema: apiKeySchema },
      ...keyErrors,
      404: error('No live key with this id in the caller’s account'),
    },
  },
  {
    method: 'delete',
    path: '/v1/keys/{id}',
    tag: 'API keys',
    auth: 'bearer',
    summary: 'Revoke a key (immediately, for search, registration and chat)',
    params: keyIdParamSchema,
    responses: {
      200: { description: 'Revoked', schema: revokedKeySchema },
      ...keyErrors,
      404: error('No live key with this id in the caller’s account'),
      503: error('The chat service could not be told of the revocation; nothing changed, the key is still live — retry'),
    },
  },
  {
    method: 'get',
    path: '/v1/featured-agents',
    tag: 'Featured agents',
    auth: 'bearer',
    summary: 'List the featured agents (admin token)',
    description:
      'Featured agents come first when browsing by relevancy and get a small lift in text relevancy; their records say `featured: true`.',
    responses: { 200: { description: 'The featured agents, by name', schema: featuredAgentListSchema }, ...adminErrors },
  },
  {
    method: 'put',
    path: '/v1/featured-agents/{address}',
    tag: 'Featured agents',
    auth: 'bearer',
    summary: 'Feature a registered agent (admin token)',
    description: 'Takes effect in search at once. Featuring an agent already featured changes nothing.',
    params: addressParamSchema,
    responses: {
      200: { description: 'The agent, featured', schema: featuredAgentSchema },
      ...adminErrors,
      404: error('No registered agent with this address'),
    },
  },
  {
    method: 'delete',
    path: '/v1/featured-agents/{address}',
    tag: 'Featured agents',
    auth: 'bearer',
    summary: 'Stop featuring an agent (admin token)',
    params: addressParamSchema,
    responses: {
      200: { description: 'The agent, no longer featured', schema: featuredAgentSchema },
      ...adminErrors,
      404: error('No registered agent with this address'),
    },
  },
  {
    method: 'post',
    path: '/v1/search/agents',
    tag: 'Search',
    auth: 'bearer',
    summary: 'Search agents',
    description:
      'Text search over names, READMEs, tags and declared functions, with filters and sorts. Pagination: keep the body, add `limit` to `offset`, pass the first response’s `search_id`. The `x-search-mode` header says whether the lexical or hybrid (semantic_search) path answered, `x-semantic-source` which semantic source a hybrid search used (`vectorize` Workers AI’s neighbours added to the offline hits, deployed; `offline` the word vectors and concept lexicon shipped in code alone, also deployed while Workers AI or Vectorize fails). Totals are exact up to a bound (10,000 by default); past it `total` is the bound and `total_is_estimate` is true. A query whose words are together in a large share of the registry (20,000 agents by default) ranks its matches among the preferred agents, those with the strongest quality prior, unless fewer of them match than the page asks for (docs/scale.md).',
    body: agentSearchRequestSchema,
    example: { search_text: 'weather', filters: { state: ['active'] }, sort: 'relevancy', direction: 'desc', offset: 0, limit: 10 },
    responses: { 200: { description: 'One page of results', schema: agentSearchResponseSchema }, ...searchErrors },
  },
  {
    method: 'post',
    path: '/v1/search/agents/click',
    tag: 'Search',
    auth: 'bearer',
    summary: 'Report that a user opened a search result (click feedback)',
    body: searchClickRequestSchema,
    responses: {
      200: { description: 'Recorded (`duplicate` when this click was already recorded)', schema: searchClickResponseSchema },
      ...searchErrors,
      404: error('Unknown search_id, or an address no search lists (unregistered or unlisted)'),
    },
  },
  {
    method: 'post',
    path: '/v1/search/functions',
    tag: 'Search',
    auth: 'bearer',
    summary: 'Search the functions agents declare (README payloads, protocols)',
    description:
      'A text search ranks at most 1,000 matches by default, the most recently written, and a listing without text reads at most 1,000 functions, the first in its sort’s order (functions of agents named in `filters.agent_address` are listed whole); when there are more, `total` counts the ones read and `total_is_estimate` is true (docs/scale.md).',
    body: functionSearchRequestSchema,
    example: { search_text: 'city', limit: 10 },
    responses: { 200: { description: 'One page of functions', schema: functionSearchResponseSchema }, ...searchErrors },
  },
  {
    method: 'get',
    path: '/v1/almanac/agents/{address}',
    tag: 'Almanac',
    auth: 'none',
    summary: 'Where to reach an agent (public: the SDKs resolve without a key)',
    params: addressParamSchema,
    responses: {
      200: { description: 'The agent’s endpoints and protocols', schema: almanacRecordSchema },
      404: detail('Unknown address'),
      406: detail('Not an agent address'),
    },
  },
  {
    method: 'post',
    path: '/v1/almanac/agents/{address}/status',
    tag: 'Almanac',
    auth: 'none',
    summary: 'Signed status update (the agent says it is active or not)',
    description: 'Signed with the agent’s own key (uagents-core AgentStatusUpdate); no API key.',
    params: addressParamSchema,
    body: agentStatusUpdateSchema,
    responses: {
      200: { description: 'Status stored', schema: statusUpdateResponseSchema },
      401: detail('Bad signature, or a timestamp too far from the registry’s clock or older than the last one'),
      404: detail('Unknown address'),
      406: detail('Malformed body, or the identifier is not this address'),
    },
  },
  {
    method: 'post',
    path: '/v1/almanac/agents',
    tag: 'Almanac',
    auth: 'none',
    summary: 'Signed registration attestation (older SDKs)',
    description: 'uagents-core AgentRegistrationAttestation: endpoints and protocols signed by the agent; no API key.',
    body: almanacAttestationSchema,
    responses: {
      200: { description: 'Stored', schema: almanacRecordSchema },
      401: detail('Bad signature or stale timestamp'),
      406: detail('Malformed body'),
    },
  },
  {
    method: 'post',
    path: '/v1/almanac/agents/batch',
    tag: 'Almanac',
    auth: 'none',
    summary: 'Signed registration attestations in a batch (uAgents’ batch registration policy)',
    description: 'uagents-core AgentRegistrationAttestationBatch: each attestation is checked on its own and gets its own result.',
    body: almanacBatchSchema,
    responses: {
      200: { description: 'At least one accepted; a result per attestation', schema: almanacBatchResponseSchema },
      401: detail('None accepted: the first refusal was a bad signature or a stale timestamp (each result in the body)'),
      406: detail('Malformed body, or none accepted and the first was malformed'),
    },
  },
  {
    method: 'get',
    path: '/v2/almanac/resolve/{identifier}',
    tag: 'Almanac',
    auth: 'none',
    summary: 'Resolve an address, a handle or a domain to its almanac record (the Agentverse CLI’s resolve)',
    params: resolveParamSchema,
    responses: {
      200: { description: 'The almanac record of the agent the identifier names', schema: almanacRecordSchema },
      400: detail('Not an address, a handle or a domain'),
      404: detail('Nothing holds this identifier'),
    },
  },
  {
    method: 'get',
    path: '/v2/identity/{address}/challenge',
    tag: 'Registration',
    auth: 'bearer',
    summary: 'Ask for an ownership challenge to sign',
    params: addressParamSchema,
    responses: challengeResponses,
  },
  {
    method: 'post',
    path: '/v2/identity',
    tag: 'Registration',
    auth: 'bearer',
    summary: 'Prove ownership of an address with the signed challenge',
    body: identityProofSchema,
    responses: {
      200: { description: 'Proven: the caller’s account owns the address', schema: identityResponseSchema },
      ...sdkAuth,
      401: detail('Unknown, used or expired challenge, bad signature, or a missing/unknown key'),
      409: detail('The address is owned by another account'),
    },
  },
  {
    method: 'post',
    path: '/v1/auth/challenge',
    tag: 'Registration',
    auth: 'bearer',
    summary: 'Ask for an ownership challenge (older SDKs: address in the body)',
    body: challengeRequestSchema,
    responses: challengeResponses,
  },
  {
    method: 'post',
    path: '/v1/auth/prove',
    tag: 'Registration',
    auth: 'bearer',
    summary: 'Prove ownership (older SDKs)',
    body: identityProofSchema,
    responses: {
      200: { description: 'Proven', schema: identityResponseSchema },
      ...sdkAuth,
      401: detail('Unknown, used or expired challenge, bad signature, or a missing/unknown key'),
      409: detail('The address is owned by another account'),
    },
  },
  {
    method: 'get',
    path: '/v2/agents',
    tag: 'Registration',
    auth: 'bearer',
    summary: "List the agents of the key's own account",
    description: 'Only the calling account’s agents, with their status and the functions their READMEs declare (a router trusts these).',
    responses: { 200: { description: 'The account’s agents', schema: ownAgentsResponseSchema }, ...sdkAuth },
  },
  ...agentRoutes('/v2/agents', 'Registration'),
  ...agentRoutes('/v1/agents', 'Registration'),
  {
    method: 'post',
    path: '/v2/agents/interactions',
    tag: 'Interactions',
    auth: 'agent',
    summary: 'Count an interaction between two agents',
    description: 'Authorised by an attestation of the source or the target agent; each attestation counts once.',
    body: interactionRequestSchema,
    responses: {
      200: { description: 'Counted', schema: interactionResponseSchema },
      401: detail('Missing or invalid attestation'),
      403: detail('The attester is neither source nor target'),
      404: detail('Target not registered'),
      406: detail('Malformed body'),
      409: detail('The attestation was already used'),
    },
  },
  {
    method: 'post',
    path: '/v2/agents/mailbox/submit',
    tag: 'Mailbox',
    auth: 'none',
    summary: 'Deliver a signed envelope to a mailbox agent’s inbox (store and forward)',
    description:
      'The endpoint of agents connected by mailbox (uAgents `Agent(mailbox=True)`). The envelope is verified (signature, target, expiry, size) and stored durably before the answer; the same envelope twice is stored once.',
    body: envelopeSchema.meta({ title: 'Envelope' }),
    responses: {
      200: { description: 'Stored', schema: mailboxSubmitResponseSchema },
      401: detail('The envelope’s signature or expiry does not verify'),
      404: detail('The target has no mailbox here'),
      406: detail('Malformed envelope'),
      413: detail('Envelope larger than 1 MiB'),
      507: detail('The target’s inbox is full (envelopes or bytes): nothing was stored'),
    },
  },
  {
    method: 'get',
    path: '/v2/agents/mailbox/submit',
    tag: 'Mailbox',
    auth: 'none',
    summary: 'The mailbox endpoint answers (HEAD too: the Agentverse CLI’s connectivity check)',
    responses: { 200: detail('Says where to POST') },
  },
  {
    method: 'get',
    path: '/v2/agents/{address}/mailbox',
    tag: 'Mailbox',
    auth: 'agent',
    summary: 'The envelopes waiting in an inbox, oldest first (uAgents MailboxClient polls this)',
    description:
      'Opens to the agent’s own attestation (`Authorization: Agent attr:…`) or to a Bearer key of the account that owns the address.',
    params: addressParamSchema,
    query: mailboxPageQuerySchema,
    responses: {
      200: { description: 'One page of stored envelopes', schema: z.array(storedEnvelopeSchema) },
      401: detail('Missing, forged or expired attestation, or an invalid key'),
      403: detail('Another agent’s attestation, or a key of another account'),
      404: detail('The agent has no mailbox here'),
      406: detail('Not an agent address, or a bad page'),
    },
  },
  {
    method: 'get',
    path: '/v2/agents/{address}/mailbox/status',
    tag: 'Mailbox',
    auth: 'agent',
    summary: 'How many envelopes wait, their bytes, the oldest, and the inbox’s limits',
    params: addressParamSchema,
    responses: {
      200: { description: 'The inbox’s state', schema: mailboxStatusSchema },
      401: detail('Missing, forged or expired attestation, or an invalid key'),
      403: detail('Another agent’s attestation, or a key of another account'),
      404: detail('The agent has no mailbox here'),
      406: detail('Not an agent address'),
    },
  },
  {
    method: 'delete',
    path: '/v2/agents/{address}/mailbox/{uuid}',
    tag: 'Mailbox',
    auth: 'agent',
    summary: 'Delete one handled envelope by uuid',
    params: addressParamSchema.extend(mailboxEnvelopeParamSchema.shape),
    responses: {
      200: { description: 'Deleted', schema: mailboxDeletedSchema },
      401: detail('Missing, forged or expired attestation, or an invalid key'),
      403: detail('Another agent’s attestation, or a key of another account'),
      404: detail('No envelope with this uuid in this inbox'),
      406: detail('Not an agent address or not a uuid'),
    },
  },
  {
    method: 'post',
    path: '/v2/agents/proxy/submit',
    tag: 'Interactions',
    auth: 'none',
    summary: 'Relay a signed envelope to its target’s webhook, counting the interaction',
    description: 'The body is a uAgents envelope, verified (signature, target, expiry, replay) before it is relayed.',
    body: envelopeSchema.meta({ title: 'Envelope' }),
    responses: {
      200: { description: 'Delivered', schema: proxySubmitResponseSchema },
      401: detail('The envelope’s signature or expiry does not verify'),
      404: detail('The target has no registered webhook'),
      406: detail('Malformed envelope'),
      409: detail('Replayed envelope, or a target this registry does not relay to'),
      413: detail('Envelope larger than 1 MiB'),
      502: {
        description: 'The target webhook refused (`delivered: false`) or did not answer (`detail`)',
        schema: z.union([proxySubmitResponseSchema, detailErrorSchema]),
      },
    },
  },
];
