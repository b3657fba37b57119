import { z } from 'zod';

/**
 * Wire contracts of the hosting API (Agentverse v1 shapes, spec/hosting.md): hosted agents, their code,
 * logs, storage and secrets. Scripts written for Agentverse work against these by changing the base URL.
 */

/** Languages hosted code may be written in; anything else is refused naming these. */
export const HOSTED_LANGUAGES = ['typescript', 'javascript', 'python'] as const;

/** Largest code string accepted (413 above it). */
export const HOSTED_CODE_MAX_BYTES = 256 * 1024;

const networkSchema = z.enum(['mainnet', 'testnet']);

export const newHostedAgentSchema = z
  .object({
    name: z.string().trim().min(1).max(80),
    readme: z.string().max(50_000).nullish(),
    avatar_url: z.url().max(2048).nullish(),
    short_description: z.string().max(300).nullish(),
    network: networkSchema.nullish(),
  })
  .meta({ title: 'NewAgent' });
export type NewHostedAgent = z.infer<typeof newHostedAgentSchema>;

export const updateHostedAgentSchema = z
  .object({
    // null keeps the name, as Agentverse's OpenAPI allows it (generated clients send unset fields as null).
    name: z.string().trim().min(1).max(80).nullish(),
    readme: z.string().max(50_000).nullish(),
    avatar_url: z.url().max(2048).nullish(),
    short_description: z.string().max(300).nullish(),
  })
  .meta({ title: 'UpdateAgent' });
export type UpdateHostedAgent = z.infer<typeof updateHostedAgentSchema>;

const hostedAgentSummarySchema = z
  .object({
    name: z.string(),
    address: z.string(),
    running: z.boolean(),
    domain: z.string().nullable(),
    prefix: z.enum(['agent', 'test-agent']),
    compiled: z.boolean().nullable(),
    code_digest: z.string().nullable(),
    wallet_address: z.string().nullable(),
    code_update_timestamp: z.string().nullable(),
    creation_timestamp: z.string(),
    avatar_url: z.string().nullable(),
  })
  .meta({ title: 'AgentSummaryV1' });
export type HostedAgentSummary = z.infer<typeof hostedAgentSummarySchema>;

export const hostedAgentSchema = hostedAgentSummarySchema
  .extend({
    revision: z.number().int(),
    maintainer_id: z.string().nullable(),
    readme: z.string().nullable(),
    short_description: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ title: 'AgentV1' });
export type HostedAgent = z.infer<typeof hostedAgentSchema>;

export const hostedAgentPageSchema = z
  .object({ items: z.array(hostedAgentSummarySchema), next_cursor: z.string().nullable() })
  .meta({ title: 'AgentSummaryPage' });

/** GET /v1/hosting/agents' sort keys: Agentverse's (`name`, `created`, `modified`) and the columns they stand for. */
const HOSTED_SORT_KEYS = ['name', 'created', 'modified', 'creation_timestamp', 'code_update_timestamp'] as const;
export type HostedSortKey = (typeof HOSTED_SORT_KEYS)[number];

export const hostedAgentListQuerySchema = z.object({
  cursor: z.string().max(200).optional(),
  name: z.string().max(80).optional(),
  // A sort key, a leading `-` sorting descending, as Agentverse reads it.
  sort_by: z
    .string()
    .regex(new RegExp(`^-?(${HOSTED_SORT_KEYS.join('|')})$`), 'sort_by is name, created or modified, with a leading - to sort descending')
    .optional(),
  direction: z.enum(['asc', 'desc']).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  no_cache: z.string().optional(),
});

/** One file of hosted code, as Agentverse takes it. */
export const codeFileSchema = z.object({
  name: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[A-Za-z0-9_\-./]+$/, 'file names use letters, digits, _ - . and /')
    .refine((name) => !name.split('/').includes('..') && !name.startsWith('/'), 'file names are relative, without ..'),
  value: z.string(),
  language: z.string().min(1).max(40),
  id: z.union([z.string(), z.number()]).nullish(),
});
export type CodeFile = z.infer<typeof codeFileSchema>;

/** The body of PUT …/code: `code` is a string holding the JSON array of files (an array itself is a 422). */
export const updateCodeSchema = z.object({ code: z.string() }).meta({ title: 'UpdateAgentCode' });

export const codeDigestSchema = z.object({ digest: z.string() }).meta({ title: 'AgentCodeDigest' });
export const agentCodeSchema = z
  .object({ digest: z.string().nullable(), code: z.string().nullable(), timestamp: z.string().nullable() })
  .meta({ title: 'AgentCode' });
export type AgentCode = z.infer<typeof agentCodeSchema>;

const LOG_LEVELS = ['trce', 'debg', 'info', 'warn', 'erro'] as const;
export const logLevelSchema = z.enum(LOG_LEVELS);
export type LogLevel = z.infer<typeof logLevelSchema>;

export const agentLogSchema = z
  .object({
    log_timestamp: z.string(),
    log_entry: z.string(),
    log_type: z.enum(['execution', 'system']),
    log_level: logLevelSchema,
  })
  .meta({ title: 'AgentLog' });
export type AgentLog = z.infer<typeof agentLogSchema>;

export const storageKeySchema = z.string().min(1).max(512);
const storageItemSchema = z.object({ key: z.string(), value: z.string() }).meta({ title: 'StorageItem' });
export type StorageItem = z.infer<typeof storageItemSchema>;
export const storagePageSchema = z
  .object({ items: z.array(storageItemSchema), next_cursor: z.string().nullable() })
  .meta({ title: 'StoragePage' });
export type StoragePage = z.infer<typeof storagePageSchema>;
export const putStorageSchema = z.object({ value: z.string().max(128 * 1024) }).meta({ title: 'StorageValue' });

/** A secret's name: an identifier, as in an environment variable. */
export const secretNameSchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'a secret name is an identifier: letters, digits and _, not starting with a digit');
export const secretCreateSchema = z
  .object({
    address: z.string().min(1).max(200),
    name: secretNameSchema,
    secret: z
      .string()
      .min(1)
      .max(16 * 1024),
  })
  .meta({ title: 'SecretCreate' });
export const secretSchema = z.object({ name: z.string(), secret: z.string(), timestamp: z.string().nullable() }).meta({ title: 'Secret' });
export type Secret = z.infer<typeof secretSchema>;
export const secretListSchema = z.object({ secrets: z.array(secretSchema.extend({ address: z.string() })) }).meta({ title: 'SecretList' });

/** FastAPI's validation error (422): what Agentverse clients parse. */
const validationErrorSchema = z
  .object({ detail: z.array(z.object({ loc: z.array(z.union([z.string(), z.number()])), msg: z.string(), type: z.string() })) })
  .meta({ title: 'ValidationError' });
export type ValidationError = z.infer<typeof validationErrorSchema>;
