import { bearerToken } from '../../../../lib/api-keys/key-token.ts';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { verifyAttestation } from '../../../../lib/registry-client/attestation.ts';
import { ownerOf } from '../identity/ownership.ts';
import { authenticate } from '../keys/authenticate.ts';
import { keyRefusal } from '../keys/require-key.ts';

/** Clocks differ: an attestation is taken this many seconds before its valid-from and after its valid-to. */
const ATTESTATION_CLOCK_SKEW_SECONDS = 60;
/** uAgents' MailboxClient signs for 1,000 s; no attestation may claim more than a day. */
const ATTESTATION_MAX_VALIDITY_SECONDS = 24 * 60 * 60;

/** Who opened an inbox: its own agent (by attestation) or a key of the account that owns the address. */
export type InboxReader = { kind: 'agent' } | { kind: 'owner'; accountId: string };

/**
 * An inbox opens to `Authorization: Agent attr:<payload>:<signature>` (uagents-core's compute_attestation)
 * signed by its own address, within its window, reused for as long as it is valid as MailboxClient does;
 * or to `Bearer <key>` of the owner's account (the explorer). 401 for a missing, forged or expired one,
 * 403 for a good one of someone else; neither says anything of the inbox.
 */
export async function openInbox(
  db: D1Database,
  authorization: string | undefined,
  address: string,
  permission: 'read' | 'write',
): Promise<InboxReader> {
  const agent = /^Agent\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (agent) {
    const check = verifyAttestation(agent[1]!, Math.floor(Date.now() / 1000), ATTESTATION_CLOCK_SKEW_SECONDS);
    if (!check.ok) throw new ApiError({ status: 401, message: check.message });
    if (check.validTo - check.validFrom > ATTESTATION_MAX_VALIDITY_SECONDS)
      throw new ApiError({ status: 401, message: 'attestation is valid for more than 24 h; make a shorter one' });
    if (check.address !== address)
      throw new ApiError({
        status: 403,
        message: 'this attestation is another agent’s: an inbox opens to its own agent or its owner’s key',
      });
    return { kind: 'agent' };
  }
  const token = bearerToken(authorization);
  if (!token)
    throw new ApiError({
      status: 401,
      message: 'missing credentials: send Authorization: Agent attr:<payload>:<signature>, or the owner’s Bearer key',
    });
  const key = await authenticate(db, token, permission);
  if (!key.ok) throw keyRefusal(key.status, key.message);
  if ((await ownerOf(db, address)) !== key.accountId)
    throw new ApiError({
      status: 403,
      message: 'this key’s account does not own this agent: an inbox opens to its own agent or its owner’s key',
    });
  return { kind: 'owner', accountId: key.accountId };
}
