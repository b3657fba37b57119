import { z } from 'zod';

/**
 * Wire contracts of API keys: what a key may do, the per-key limits the chat Worker enforces, and the
 * bodies of the key management endpoints (`/v1/keys`).
 */

/**
 * read: search and lookup; write: register, update, delete agents; chat: chat completions; keys: manage the account's keys;
 * hosting: create and run hosted agents (/v1/hosting).
 */
export const PERMISSIONS = ['read', 'write', 'chat', 'keys', 'hosting'] as const;
export const permissionSchema = z.enum(PERMISSIONS);
export type Permission = z.infer<typeof permissionSchema>;

export const keyLimitsSchema = z
  .object({
    requests_per_minute: z.number().int().min(1).max(1_000_000).nullish(),
    tokens_per_minute: z.number().int().min(1).max(1_000_000_000).nullish(),
  })
  .strict()
  .meta({ title: 'KeyLimits' });
export type KeyLimits = z.infer<typeof keyLimitsSchema>;

/** Longest a key may live when an expiry is given, in days. */
const KEY_MAX_DAYS = 3650;

export const createKeyRequestSchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    permissions: z.array(permissionSchema).min(1).max(PERMISSIONS.length),
    limits: keyLimitsSchema.nullish(),
    expires_in_days: z.number().int().min(1).max(KEY_MAX_DAYS).nullish(),
    /** Admin only: the account the key belongs to. Without it the admin token creates a new account. */
    account_id: z.string().min(1).max(64).nullish(),
    /** Admin only: the name of the new account. */
    account_name: z.string().trim().min(1).max(100).nullish(),
  })
  .strict()
  .meta({ title: 'CreateKeyRequest' });
export type CreateKeyRequest = z.infer<typeof createKeyRequestSchema>;

/** PATCH /v1/keys/{id}: rename a key or change its limits (null: back to the deployment's defaults). */
export const updateKeyRequestSchema = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    limits: keyLimitsSchema.nullable().optional(),
  })
  .strict()
  .refine((body) => body.name !== undefined || body.limits !== undefined, { message: 'give name or limits (or both)' })
  .meta({ title: 'UpdateKeyRequest' });
export type UpdateKeyRequest = z.infer<typeof updateKeyRequestSchema>;

/** A key as listed: never its secret. */
export const apiKeySchema = z
  .object({
    id: z.string(),
    account_id: z.string(),
    name: z.string(),
    prefix: z.string(),
    permissions: z.array(permissionSchema),
    limits: keyLimitsSchema.nullable(),
    created_at: z.string(),
    expires_at: z.string().nullable(),
    last_used_at: z.string().nullable(),
  })
  .meta({ title: 'ApiKey' });
export type ApiKey = z.infer<typeof apiKeySchema>;

/** The one response that carries the secret (`key`), at creation. */
export const createdKeySchema = apiKeySchema.extend({ key: z.string() }).meta({ title: 'CreatedApiKey' });
export type CreatedKey = z.infer<typeof createdKeySchema>;

export const keyListSchema = z.object({ keys: z.array(apiKeySchema) }).meta({ title: 'ApiKeyList' });
export type KeyList = z.infer<typeof keyListSchema>;

export const revokedKeySchema = z
  .object({ id: z.string(), revoked: z.literal(true), revoked_at: z.string() })
  .meta({ title: 'RevokedApiKey' });
export type RevokedKey = z.infer<typeof revokedKeySchema>;

export const keyIdParamSchema = z.object({ id: z.string().regex(/^[0-9a-f]{16}$/, 'must be a key id (16 hex digits)') });
export const keyListQuerySchema = z.object({ account_id: z.string().min(1).max(64).optional() }).strict();
