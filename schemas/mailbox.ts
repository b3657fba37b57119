import { z } from 'zod';

/**
 * Wire contracts of the mailbox (store and forward for agents without a public URL), in the shapes uAgents'
 * `MailboxClient` reads: it polls `GET /v2/agents/{address}/mailbox` for a list of `StoredEnvelope`s and
 * deletes each by `uuid` once handled. The `envelope` is uagents-core's `Envelope` as the sender signed it.
 */

/** The path senders deliver to: uagents-core's `AgentverseConfig.mailbox_endpoint` is the base URL and this. */
export const MAILBOX_SUBMIT_PATH = '/v2/agents/mailbox/submit';
/** uagents-core's `AgentverseConfig.proxy_endpoint`: the registry relays to the agent's webhook. */
export const PROXY_SUBMIT_PATH = '/v2/agents/proxy/submit';

const MAILBOX_PAGE_MAX = 100;

export const mailboxPageQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(MAILBOX_PAGE_MAX).default(MAILBOX_PAGE_MAX),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  })
  .meta({ title: 'MailboxPage' });

export const mailboxEnvelopeParamSchema = z.object({ uuid: z.uuid() });

/** One stored envelope, oldest first in a listing. Times are ISO 8601 UTC. */
export const storedEnvelopeSchema = z
  .object({
    uuid: z.uuid(),
    envelope: z.record(z.string(), z.unknown()),
    received_at: z.string(),
    expires_at: z.string(),
  })
  .meta({ title: 'StoredEnvelope' });
export type StoredEnvelope = z.infer<typeof storedEnvelopeSchema>;

export const mailboxSubmitResponseSchema = z
  .object({ uuid: z.uuid(), target: z.string(), received_at: z.string(), expires_at: z.string() })
  .meta({ title: 'MailboxSubmitResponse' });
export type MailboxSubmitResponse = z.infer<typeof mailboxSubmitResponseSchema>;

const mailboxLimitsSchema = z
  .object({
    max_envelopes: z.number().int(),
    max_bytes: z.number().int(),
    max_envelope_bytes: z.number().int(),
    retention_seconds: z.number().int(),
  })
  .meta({ title: 'MailboxLimits' });
export type MailboxLimits = z.infer<typeof mailboxLimitsSchema>;

/** GET /v2/agents/{address}/mailbox/status: what waits in an inbox, for its agent or its owner. */
export const mailboxStatusSchema = z
  .object({
    address: z.string(),
    pending: z.number().int(),
    bytes: z.number().int(),
    oldest_received_at: z.string().nullable(),
    limits: mailboxLimitsSchema,
  })
  .meta({ title: 'MailboxStatus' });
export type MailboxStatus = z.infer<typeof mailboxStatusSchema>;

export const mailboxDeletedSchema = z.object({ uuid: z.uuid(), deleted: z.literal(true) }).meta({ title: 'MailboxDeleted' });
export type MailboxDeleted = z.infer<typeof mailboxDeletedSchema>;
