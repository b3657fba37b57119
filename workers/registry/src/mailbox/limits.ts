import type { MailboxLimits } from '../../../../schemas/mailbox.ts';

/**
 * One inbox's bounds (docs/decisions/0113): an envelope waits at most a week (less when it expires sooner),
 * an inbox holds at most 1,000 envelopes and 16 MiB, one envelope at most 1 MiB. A full inbox refuses, it
 * never drops what it holds.
 */
export const MAILBOX_LIMITS: MailboxLimits = {
  max_envelopes: 1000,
  max_bytes: 16 * 1024 * 1024,
  max_envelope_bytes: 1024 * 1024,
  retention_seconds: 7 * 24 * 60 * 60,
};
