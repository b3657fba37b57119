import { ApiError } from '../../../../lib/http/api-error.ts';
import { agentColumns } from '../agents/columns.ts';
import { deliveryOf } from '../agents/status.ts';
import { findAgent } from '../agents/store.ts';

/**
 * How long an isolate trusts that an address is a mailbox agent. Submit asks for every envelope, and a D1 read
 * from an edge location far from the database costs more than the rest of the submit together. An agent that
 * moves its endpoint away from the mailbox may still be sent to its inbox for this long (the envelopes wait
 * there until they expire); an agent that has just connected is never refused for it (only "yes" is kept).
 */
const KNOWN_MAILBOX_MS = 30_000;
const MAX_KNOWN = 10_000;

/** Per isolate: mailbox agents seen, and until when that holds. */
const known = new Map<string, number>();

/** An inbox exists for an agent registered with this registry's mailbox as its endpoint; 404 otherwise. */
export async function requireMailboxAgent(db: Pick<D1Database, 'prepare'>, address: string, now = Date.now()): Promise<void> {
  const until = known.get(address);
  if (until !== undefined && until > now) return;
  const row = await findAgent(db, address);
  if (!row || deliveryOf({ url: row.url, endpoints: agentColumns.endpoints(row.endpoints) }) !== 'mailbox') {
    known.delete(address);
    throw new ApiError({
      status: 404,
      message: `${address} has no mailbox here: register it with the endpoint {registry}/v2/agents/mailbox/submit (uAgents: Agent(mailbox=True))`,
    });
  }
  if (known.size >= MAX_KNOWN) known.delete(known.keys().next().value!);
  known.set(address, now + KNOWN_MAILBOX_MS);
}
