import { z } from 'zod';
import { isValidAddress } from './address.ts';
import { AGENT_TYPES, agentFunctionSchema, agentRecordSchema, agentStatusSchema, protocolDigestSchema } from './search.ts';

/**
 * Wire contracts of registration, agent records, the almanac and interactions, in the forms the Python
 * SDKs (`uagents-core`, `fetchai`) send (test/fixtures/interop/registration.md). Optional fields also take `null`
 * (Python sends `None`); unknown fields are ignored, as the SDK versions differ in what they add.
 */

const optional = <T extends z.ZodType>(schema: T) =>
  schema
    .nullish()
    .transform((value) => value ?? undefined)
    .optional();

export const agentAddressSchema = z
  .string()
  .max(200)
  // Bech32 may be written all in capitals; one agent has one (lowercase) address however it is written.
  .transform((value) => (value === value.toUpperCase() ? value.toLowerCase() : value))
  .refine((value) => isValidAddress(value), 'must be an agent address (bech32 "agent1…" of a 33-byte public key)');

export const addressParamSchema = z.object({ address: agentAddressSchema });

/** A public http(s) URL; private and loopback hosts are allowed and mark the agent `local`. */
const webhookUrlSchema = z
  .string()
  .trim()
  .max(4000)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL');

const agentEndpointSchema = z.object({ url: webhookUrlSchema, weight: z.number().int().min(0).max(1_000_000).default(1) });
export type AgentEndpoint = z.infer<typeof agentEndpointSchema>;

const handleSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/, '1-40 letters, digits, _ or -, starting with a letter or digit');
export const handleParamSchema = z.object({ handle: handleSchema });

export const README_MAX_CHARS = 80_000;

const agentProfileSchema = z.object({
  description: optional(z.string().max(300)),
  readme: optional(z.string().max(README_MAX_CHARS)),
  avatar_url: optional(z.string().max(4000)),
  banner_url: optional(z.string().max(4000)),
  starter_prompts: optional(z.array(z.string().max(500)).max(20)),
});

/** Free metadata an agent registers (uAgents sends strings, lists and small objects). */
const agentMetadataSchema = z
  .record(z.string().max(200), z.unknown())
  .refine((value) => JSON.stringify(value).length <= 16_384, 'metadata is larger than 16 KiB');

const geoLocationSchema = z
  .object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) })
  .catchall(z.unknown());

/**
 * POST /v2/agents (and /v1/agents). The uagents-core RegistrationRequest, plus the older forms: `endpoint`
 * for `url`, and `challenge`/`challenge_response` proving the address inline.
 */
export const registrationRequestSchema = z
  .object({
    address: agentAddressSchema,
    name: optional(z.string().trim().min(1).max(80)),
    handle: optional(handleSchema),
    url: optional(webhookUrlSchema),
    endpoint: optional(webhookUrlSchema),
    agent_type: optional(z.enum(AGENT_TYPES)),
    profile: optional(agentProfileSchema),
    readme: optional(z.string().max(README_MAX_CHARS)),
    endpoints: optional(z.array(agentEndpointSchema).max(10)),
    protocols: optional(z.array(protocolDigestSchema).max(100)),
    metadata: optional(agentMetadataSchema),
    geo_location: optional(geoLocationSchema),
    challenge: optional(z.string().max(200)),
    challenge_response: optional(z.string().max(300)),
  })
  .meta({ title: 'RegistrationRequest' });
export type RegistrationRequest = z.infer<typeof registrationRequestSchema>;

/**
 * PUT / PATCH /v2/agents/{address} (PUT /v1/agents/{address}): the fields to change. uagents-core's
 * AgentUpdates (`name, readme, avatar_url, short_description, agent_type`) is one instance of it.
 */
export const agentUpdateSchema = z
  .object({
    name: optional(z.string().trim().min(1).max(80)),
    handle: optional(handleSchema),
    url: optional(webhookUrlSchema),
    readme: optional(z.string().max(README_MAX_CHARS)),
    short_description: optional(z.string().max(300)),
    avatar_url: optional(z.string().max(4000)),
    agent_type: optional(z.enum(AGENT_TYPES)),
    profile: optional(agentProfileSchema),
    endpoints: optional(z.array(agentEndpointSchema).max(10)),
    protocols: optional(z.array(protocolDigestSchema).max(100)),
    metadata: optional(agentMetadataSchema),
    geo_location: optional(geoLocationSchema),
    public: optional(z.boolean()),
  })
  .meta({ title: 'AgentUpdate' });
export type AgentUpdate = z.infer<typeof agentUpdateSchema>;

export const challengeResponseSchema = z.object({ challenge: z.string() }).meta({ title: 'ChallengeResponse' });
export type ChallengeResponse = z.infer<typeof challengeResponseSchema>;

/** POST /v1/auth/challenge (older SDKs) asks for a challenge with a body instead of a path. */
export const challengeRequestSchema = z.object({ address: agentAddressSchema }).meta({ title: 'ChallengeRequest' });

export const identityProofSchema = z
  .object({ address: agentAddressSchema, challenge: z.string().min(1).max(200), challenge_response: z.string().min(1).max(300) })
  .meta({ title: 'IdentityProof' });
export type IdentityProof = z.infer<typeof identityProofSchema>;

export const identityResponseSchema = z.object({ address: z.string() }).meta({ title: 'IdentityResponse' });
export type IdentityResponse = z.infer<typeof identityResponseSchema>;

/** Unix seconds as uagents-core writes them. */
const timestampSchema = z
  .number()
  .int()
  .min(0)
  .max(2 ** 40);

/** `agent_identifier` may carry a prefix (`test-agent://agent1…`); the address is its last part. */
const agentIdentifierSchema = z.string().min(1).max(300);

/** POST /v1/almanac/agents/{address}/status: uagents-core AgentStatusUpdate, signed by the agent. */
export const agentStatusUpdateSchema = z
  .object({
    agent_identifier: optional(agentIdentifierSchema),
    agent_address: optional(agentIdentifierSchema),
    is_active: z.boolean(),
    timestamp: timestampSchema,
    signature: z.string().min(1).max(300),
  })
  .refine((value) => value.agent_identifier ?? value.agent_address, { message: 'agent_identifier is required', path: ['agent_identifier'] })
  .meta({ title: 'AgentStatusUpdate' });

/** POST /v1/almanac/agents (older SDKs): uagents-core AgentRegistrationAttestation, signed by the agent. */
export const almanacAttestationSchema = z
  .object({
    agent_identifier: optional(agentIdentifierSchema),
    agent_address: optional(agentIdentifierSchema),
    protocols: z.array(protocolDigestSchema).max(100),
    endpoints: z.array(z.object({ url: webhookUrlSchema, weight: z.number().int().min(0).max(1_000_000) })).max(10),
    metadata: optional(
      z.record(
        z.string().max(200),
        z.union([z.string().max(4000), z.array(z.string().max(4000)).max(100), z.record(z.string().max(200), z.string().max(4000))]),
      ),
    ),
    timestamp: timestampSchema,
    signature: z.string().min(1).max(300),
  })
  .refine((value) => value.agent_identifier ?? value.agent_address, { message: 'agent_identifier is required', path: ['agent_identifier'] })
  .meta({ title: 'AgentRegistrationAttestation' });

export const domainTagSchema = z.object({ domain: z.string(), label: z.string(), color: z.string() }).meta({ title: 'DomainTag' });
export type DomainTag = z.infer<typeof domainTagSchema>;

export type AgentFunction = z.infer<typeof agentFunctionSchema>;

/** What the registry read from a README, and what it could not accept (an invalid badge colour). */
const readmeAnalysisSchema = z
  .object({
    tags: z.array(z.string()),
    domain_tags: z.array(domainTagSchema),
    invalid_domain_badges: z.array(z.object({ badge: z.string(), reason: z.string() })),
    description: z.string(),
    use_cases: z.array(z.string()),
    functions: z.array(agentFunctionSchema),
  })
  .meta({ title: 'ReadmeAnalysis' });
export type ReadmeAnalysis = z.infer<typeof readmeAnalysisSchema>;

/** An endpoint as records carry it: stored as registered (its weight defaulted). */
export const endpointRecordSchema = z.object({ url: z.string(), weight: z.number().int() });

/** The profile as records carry it: every field present. */
const profileRecordSchema = z.object({
  description: z.string(),
  avatar_url: z.string().nullable(),
  banner_url: z.string().nullable(),
  starter_prompts: z.array(z.string()),
});
export type ProfileRecord = z.infer<typeof profileRecordSchema>;

/** GET /v2/agents/{address}: the spec's agent record and everything registration stored. */
export const agentDetailSchema = agentRecordSchema
  .extend({
    url: z.string().nullable(),
    endpoints: z.array(endpointRecordSchema),
    domain_tags: z.array(domainTagSchema),
    profile: profileRecordSchema,
    metadata: z.record(z.string(), z.unknown()).nullable(),
    is_active: z.boolean(),
    public: z.boolean(),
    last_status_update: z.string().nullable(),
    last_probe_at: z.string().nullable(),
    last_probe_ok: z.boolean().nullable(),
  })
  .meta({ title: 'AgentDetail' });
export type AgentDetail = z.infer<typeof agentDetailSchema>;

export const registrationResponseSchema = z
  .object({ success: z.literal(true), created: z.boolean(), agent: agentDetailSchema, readme: readmeAnalysisSchema })
  .meta({ title: 'RegistrationResponse' });
export type RegistrationResponse = z.infer<typeof registrationResponseSchema>;

/** An almanac record's status, in the set uAgents' models allow (docs/decisions/0111). */
const ALMANAC_STATUSES = ['active', 'inactive', 'offline'] as const;

/**
 * GET /v1/almanac/agents/{address}: where to send messages (the SDKs read `endpoints`), in the shape uAgents'
 * `AlmanacRegistration` reads (the Agentverse CLI). An expired registration keeps its record, with no endpoints.
 */
export const almanacRecordSchema = z
  .object({
    address: z.string(),
    name: z.string(),
    status: z.enum(ALMANAC_STATUSES),
    type: z.enum(AGENT_TYPES),
    url: z.string().nullable(),
    endpoints: z.array(endpointRecordSchema),
    /** Protocol digests as bare hex (no `proto:`), as uAgents' almanac lists them. */
    protocols: z.array(z.string()),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    domain_name: z.string().nullable(),
    /** When the registration lapses unless renewed (ISO 8601 UTC); past it, the record resolves to no endpoint. */
    expiry: z.string(),
    last_updated: z.string(),
    /** True once an account registered the address (POST /v2/agents); false for an attestation-only agent. */
    registered: z.boolean(),
  })
  .meta({ title: 'AlmanacRecord' });
export type AlmanacRecord = z.infer<typeof almanacRecordSchema>;

/** POST /v1/almanac/agents/batch: uAgents' `AgentRegistrationAttestationBatch`; each attestation is checked on its own. */
const ALMANAC_BATCH_MAX = 100;
export const almanacBatchSchema = z
  .object({ attestations: z.array(z.unknown()).min(1).max(ALMANAC_BATCH_MAX) })
  .meta({ title: 'AgentRegistrationAttestationBatch' });

const almanacBatchResultSchema = z
  .object({
    index: z.number().int(),
    address: z.string().nullable(),
    accepted: z.boolean(),
    status: z.number().int(),
    detail: z.string(),
  })
  .meta({ title: 'AlmanacBatchResult' });
export type AlmanacBatchResult = z.infer<typeof almanacBatchResultSchema>;

export const almanacBatchResponseSchema = z
  .object({ accepted: z.number().int(), refused: z.number().int(), results: z.array(almanacBatchResultSchema) })
  .meta({ title: 'AlmanacBatchResponse' });
export type AlmanacBatchResponse = z.infer<typeof almanacBatchResponseSchema>;

/** GET /v2/almanac/resolve/{identifier}: an address (optionally `prefix://`), a handle (`@` optional) or a domain. */
export const resolveParamSchema = z.object({ identifier: z.string().trim().min(1).max(300) });

export const statusUpdateResponseSchema = z
  .object({ address: z.string(), is_active: z.boolean(), status: agentStatusSchema })
  .meta({ title: 'StatusUpdateResponse' });
export type StatusUpdateResponse = z.infer<typeof statusUpdateResponseSchema>;

export const deletedAgentSchema = z.object({ address: z.string(), deleted: z.literal(true) }).meta({ title: 'DeletedAgent' });
export type DeletedAgent = z.infer<typeof deletedAgentSchema>;

/** POST /v2/agents/interactions body (uagents-core record_agent_interaction); extra fields are ignored. */
export const interactionRequestSchema = z
  .object({
    target: agentAddressSchema,
    source: optional(agentAddressSchema),
    session_id: optional(z.string().max(200)),
  })
  .meta({ title: 'InteractionRequest' });

export const interactionResponseSchema = z
  .object({ counted: z.boolean(), target: z.string(), total_interactions: z.number().int(), recent_interactions: z.number().int() })
  .meta({ title: 'InteractionResponse' });
export type InteractionResponse = z.infer<typeof interactionResponseSchema>;

export const proxySubmitResponseSchema = z
  .object({ delivered: z.boolean(), target: z.string(), status: z.number().int().nullable(), detail: z.string() })
  .meta({ title: 'ProxySubmitResponse' });
export type ProxySubmitResponse = z.infer<typeof proxySubmitResponseSchema>;

/** Error body of the endpoints the Python SDKs call (FastAPI style, which the SDK reads). */
export const detailErrorSchema = z.object({ detail: z.string() }).meta({ title: 'DetailError' });
export type DetailError = z.infer<typeof detailErrorSchema>;
