import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { parseEnvelope, serializeEnvelope, verifyEnvelope } from '../../../../lib/envelope/index.ts';
import {
  type MailboxDeleted,
  mailboxEnvelopeParamSchema,
  mailboxPageQuerySchema,
  type MailboxStatus,
  type MailboxSubmitResponse,
} from '../../../../schemas/mailbox.ts';
import { addressParamSchema } from '../../../../schemas/registry.ts';
import type { RegistryApp } from '../app.ts';
import { speaksDetail, validateDetail } from '../http/detail.ts';
import { openInbox } from './access.ts';
import type { InboxEntry } from './inbox.ts';
import { MAILBOX_LIMITS } from './limits.ts';
import { requireMailboxAgent } from './mailbox-agents.ts';

const iso = (ms: number) => new Date(ms).toISOString();

function inboxOf(env: RegistryApp['Bindings'], address: string) {
  return env.MAILBOX.get(env.MAILBOX.idFromName(address));
}

/** StoredEnvelope JSON with the envelope inlined as signed (its u64 fields stay exact). */
function storedEnvelopeJson(entry: InboxEntry): string {
  return `{"uuid":${JSON.stringify(entry.uuid)},"envelope":${entry.envelope},"received_at":${JSON.stringify(iso(entry.receivedAt))},"expires_at":${JSON.stringify(iso(entry.expiresAt))}}`;
}

/**
 * The mailbox (store and forward) for agents without a public URL, as uAgents' `Agent(mailbox=True)` uses it:
 * senders POST signed envelopes to `/v2/agents/mailbox/submit`; the agent polls `GET /v2/agents/{address}/mailbox`
 * and deletes each envelope it handled by uuid. Delivery is at least once: an envelope stays until deleted or expired.
 */
export function mailboxRoutes() {
  const app = new Hono<RegistryApp>();
  app.use('*', speaksDetail);

  const envelopeLimit = bodyLimit({
    maxSize: MAILBOX_LIMITS.max_envelope_bytes,
    onError: () => {
      throw new ApiError({ status: 413, message: `envelope is larger than ${MAILBOX_LIMITS.max_envelope_bytes} bytes` });
    },
  });

  // The Agentverse CLI's connectivity check sends HEAD to each endpoint: the mailbox answers it.
  app.get('/mailbox/submit', (c) => c.json({ detail: 'mailbox endpoint: POST a signed envelope here' }));

  app.post('/mailbox/submit', envelopeLimit, async (c) => {
    const parsed = parseEnvelope(await c.req.text());
    if (!parsed.ok) throw new ApiError({ status: 406, message: `malformed envelope: ${parsed.message}` });
    const { envelope } = parsed;
    // The lookup's wait overlaps the signature check's CPU; a target without a mailbox is still refused first.
    const mailboxAgent = requireMailboxAgent(c.var.shards().ownerReader(envelope.target), envelope.target);
    // The inbox keeps one copy of each signed envelope: it is the replay guard here.
    const verdict = await verifyEnvelope(envelope, { self: envelope.target, replay: { claim: async () => 'claimed' } });
    await mailboxAgent;
    if (!verdict.ok) throw new ApiError({ status: verdict.reason === 'malformed_payload' ? 406 : 401, message: verdict.message });
    const now = Date.now();
    const retained = now + MAILBOX_LIMITS.retention_seconds * 1000;
    const expiresAt = envelope.expires == null ? retained : Math.min(retained, Number(envelope.expires) * 1000);
    const stored = await inboxOf(c.env, envelope.target).submit(serializeEnvelope(envelope), verdict.digestHex, expiresAt, now);
    if (!stored.ok) {
      const bound = stored.full === 'envelopes' ? `${MAILBOX_LIMITS.max_envelopes} envelopes` : `${MAILBOX_LIMITS.max_bytes} bytes`;
      throw new ApiError({
        status: 507,
        message: `the inbox of ${envelope.target} is full (${bound}); its agent has not collected its messages. Nothing was stored: send again later`,
      });
    }
    const body: MailboxSubmitResponse = {
      uuid: stored.entry.uuid,
      target: envelope.target,
      received_at: iso(stored.entry.receivedAt),
      expires_at: iso(stored.entry.expiresAt),
    };
    return c.json(body);
  });

  app.get('/:address/mailbox', validateDetail('param', addressParamSchema), validateDetail('query', mailboxPageQuerySchema), async (c) => {
    const { address } = c.req.valid('param');
    await openInbox(c.env.DB, c.req.header('authorization'), address, 'read');
    await requireMailboxAgent(c.var.shards().ownerReader(address), address);
    const { limit, offset } = c.req.valid('query');
    const entries = await inboxOf(c.env, address).list(limit, offset);
    return c.body(`[${entries.map(storedEnvelopeJson).join(',')}]`, 200, { 'content-type': 'application/json' });
  });

  app.get('/:address/mailbox/status', validateDetail('param', addressParamSchema), async (c) => {
    const { address } = c.req.valid('param');
    await openInbox(c.env.DB, c.req.header('authorization'), address, 'read');
    await requireMailboxAgent(c.var.shards().ownerReader(address), address);
    const summary = await inboxOf(c.env, address).summary();
    const body: MailboxStatus = {
      address,
      pending: summary.pending,
      bytes: summary.bytes,
      oldest_received_at: summary.oldestReceivedAt === null ? null : iso(summary.oldestReceivedAt),
      limits: MAILBOX_LIMITS,
    };
    return c.json(body);
  });

  app.delete('/:address/mailbox/:uuid', validateDetail('param', addressParamSchema.extend(mailboxEnvelopeParamSchema.shape)), async (c) => {
    const { address, uuid } = c.req.valid('param');
    await openInbox(c.env.DB, c.req.header('authorization'), address, 'write');
    if (!(await inboxOf(c.env, address).remove(uuid)))
      throw new ApiError({ status: 404, message: `no envelope ${uuid} in this inbox (already deleted, expired, or never here)` });
    const body: MailboxDeleted = { uuid, deleted: true };
    return c.json(body);
  });

  return app;
}
