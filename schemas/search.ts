import { z } from 'zod';

/**
 * Wire contracts of the registry's search endpoints: agent search, click feedback, function search.
 * Optional request fields also accept `null` (Python clients send `None` for unset fields).
 */

export const SEARCH_LIMIT_DEFAULT = 30;
export const SEARCH_LIMIT_MAX = 100;
/** Deepest window start; past it a client should narrow the query instead of paging. */
const SEARCH_OFFSET_MAX = 10_000;
/** Longest accepted `search_text`; only the first SEARCH_TERMS_MAX words of it are searched. */
const SEARCH_TEXT_MAX_CHARS = 16_384;
/** Longest `source` label: room for an agent address (65 characters) or a domain name (253). */
const SEARCH_SOURCE_MAX_CHARS = 256;

export const AGENT_STATES = ['active', 'inactive', 'responsive', 'unresponsive'] as const;
/** An agent's status on the wire: `local` when its webhook is loopback or private (workers/registry/src/agents/status.ts). */
export const agentStatusSchema = z.enum(['active', 'offline', 'local']);
export const AGENT_CATEGORIES = ['fetch-ai', 'community'] as const;
export const AGENT_TYPES = ['uagent', 'a2a', 'hosted', 'mailbox', 'proxy', 'local', 'custom'] as const;
export const SEARCH_SORTS = ['relevancy', 'created-at', 'last-modified', 'interactions'] as const;
export const SEARCH_DIRECTIONS = ['asc', 'desc'] as const;
/** `payload`: parameters an agent's README declares in `<payload_requirements>`; `protocol`: a registered protocol. */
const FUNCTION_TYPES = ['payload', 'protocol'] as const;

/** A protocol digest as uAgents writes it: `proto:` and 64 hex digits. */
export const protocolDigestSchema = z.string().regex(/^proto:[0-9a-f]{64}$/, 'must be "proto:" followed by 64 lowercase hex digits');

const optional = <T extends z.ZodType>(schema: T) =>
  schema
    .nullish()
    .transform((value) => value ?? undefined)
    .optional();

const searchFiltersSchema = z
  .object({
    state: optional(z.array(z.enum(AGENT_STATES)).max(AGENT_STATES.length * 2)),
    category: optional(z.array(z.enum(AGENT_CATEGORIES)).max(10)),
    agent_type: optional(z.array(z.enum(AGENT_TYPES)).max(20)),
    protocol_digest: optional(z.array(protocolDigestSchema).max(50)),
    tags: optional(z.array(z.string().trim().min(1).max(100)).max(50)),
    has_readme: optional(z.boolean()),
    has_location: optional(z.boolean()),
    n_interactions: optional(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)),
  })
  .strict()
  .meta({ title: 'SearchFilters' });

/** Fields agent search and function search share. */
const searchWindowShape = {
  search_text: optional(z.string().max(SEARCH_TEXT_MAX_CHARS)),
  sort: optional(z.enum(SEARCH_SORTS)),
  direction: optional(z.enum(SEARCH_DIRECTIONS)),
  offset: optional(z.number().int().min(0).max(SEARCH_OFFSET_MAX)),
  limit: optional(z.number().int().min(1).max(SEARCH_LIMIT_MAX)),
  search_id: optional(z.uuid()),
  exact_match: optional(z.boolean()),
  /**
   * A fraction of the best hit's score, or Agentverse's named level `balanced` (its clients send it), which is the
   * ranking's own balance: no cut beyond what a search without `cutoff` makes (docs/decisions/0221).
   */
  cutoff: optional(
    z.union([z.number().min(0).max(1), z.literal('balanced').transform(() => 0)], {
      error: 'must be a number from 0 to 1, or "balanced"',
    }),
  ),
  /**
   * Label of the calling application, stored with the search session (click analytics per source). Any text, as
   * Agentverse takes it ("'', 'agentverse', an agent address … or any arbitrary string").
   */
  source: optional(z.string().trim().max(SEARCH_SOURCE_MAX_CHARS)),
};

export const agentSearchRequestSchema = z
  .object({
    ...searchWindowShape,
    filters: optional(searchFiltersSchema),
    semantic_search: optional(z.boolean()),
    rerank: optional(z.boolean()),
    exclude_geo_agents: optional(z.boolean()),
  })
  .meta({ title: 'AgentSearchRequest' });

export const functionSearchRequestSchema = z
  .object({
    ...searchWindowShape,
    filters: optional(
      z
        .object({
          function_type: optional(z.array(z.enum(FUNCTION_TYPES)).max(4)),
          agent_address: optional(z.array(z.string().min(1).max(200)).max(50)),
        })
        .strict(),
    ),
    function_type: optional(z.enum(FUNCTION_TYPES)),
  })
  .meta({ title: 'FunctionSearchRequest' });

const functionParameterSchema = z
  .object({ name: z.string(), description: z.string(), required: z.boolean() })
  .meta({ title: 'FunctionParameter' });

/** A callable form an agent's README declares in `<payload_requirements>`: one per `<payload>`. */
export const agentFunctionSchema = z
  .object({ name: z.string(), description: z.string(), parameters: z.array(functionParameterSchema) })
  .meta({ title: 'AgentFunction' });

export const agentRecordSchema = z
  .object({
    address: z.string(),
    name: z.string(),
    readme: z.string(),
    status: agentStatusSchema,
    total_interactions: z.number().int(),
    recent_interactions: z.number().int(),
    /** Recent (30 days) interactions from agents of other accounts: evidence one owner cannot make alone. */
    cross_account_interactions: z.number().int(),
    /** AgentRank: rank received over the interactions between different accounts; 0 for none (docs/ranking.md). */
    agent_rank: z.number(),
    rating: z.number().nullable(),
    type: z.string(),
    category: z.string(),
    featured: z.boolean(),
    geo_location: z.record(z.string(), z.unknown()).nullable(),
    last_updated: z.string(),
    created_at: z.string(),
    handle: z.string().nullable(),
    description: z.string(),
    tags: z.array(z.string()),
    protocols: z.array(z.string()),
    /** Read from the README once, at registration (its `<use_case>` items or "Use cases" list). */
    use_cases: z.array(z.string()),
    /** The README's `<payload>` forms, read at registration: what the agent accepts. */
    functions: z.array(agentFunctionSchema),
  })
  .meta({ title: 'AgentRecord' });

const envelopeShape = {
  offset: z.number().int(),
  limit: z.number().int(),
  num_hits: z.number().int(),
  total: z.number().int(),
  search_id: z.uuid(),
};

export const agentSearchResponseSchema = z
  .object({
    agents: z.array(agentRecordSchema),
    ...envelopeShape,
    /** More agents match than the registry counts exactly: `total` is then that bound, a lower bound. */
    total_is_estimate: z.boolean(),
  })
  .meta({ title: 'AgentSearchResponse' });

const functionRecordSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    function_type: z.enum(FUNCTION_TYPES),
    parameters: z.array(functionParameterSchema),
    protocol_digest: z.string().nullable(),
    agent_address: z.string(),
    agent_name: z.string(),
    last_updated: z.string(),
  })
  .meta({ title: 'FunctionRecord' });

export const functionSearchResponseSchema = z
  .object({
    functions: z.array(functionRecordSchema),
    ...envelopeShape,
    /** More functions match than a search ranks: `total` counts the ranked ones, a lower bound. */
    total_is_estimate: z.boolean(),
  })
  .meta({ title: 'FunctionSearchResponse' });

export const searchClickRequestSchema = z
  .object({
    search_id: z.uuid(),
    /** Zero-based page the agent was shown on (offset ÷ limit of the page's request). */
    page_index: z.number().int().min(0).max(SEARCH_OFFSET_MAX),
    address: z.string().min(1).max(200),
  })
  .meta({ title: 'SearchClickRequest' });

export const searchClickResponseSchema = z
  .object({ status: z.literal('recorded'), search_id: z.uuid(), address: z.string(), page_index: z.number().int(), duplicate: z.boolean() })
  .meta({ title: 'SearchClickResponse' });

export type SearchFilters = z.infer<typeof searchFiltersSchema>;
export type AgentSearchRequest = z.infer<typeof agentSearchRequestSchema>;
export type FunctionSearchRequest = z.infer<typeof functionSearchRequestSchema>;
export type AgentStatus = z.infer<typeof agentStatusSchema>;
export type AgentRecord = z.infer<typeof agentRecordSchema>;
export type AgentSearchResponse = z.infer<typeof agentSearchResponseSchema>;
export type FunctionRecord = z.infer<typeof functionRecordSchema>;
export type FunctionParameter = z.infer<typeof functionParameterSchema>;
export type FunctionSearchResponse = z.infer<typeof functionSearchResponseSchema>;
export type SearchClickRequest = z.infer<typeof searchClickRequestSchema>;
export type SearchClickResponse = z.infer<typeof searchClickResponseSchema>;
export type AgentSort = (typeof SEARCH_SORTS)[number];
