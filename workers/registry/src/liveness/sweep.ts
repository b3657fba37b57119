import { agentShards } from '../shards/agent-shards.ts';
import { DEFAULT_PROBE, probeableRows, probeRows, type ProbeSummary } from './probe.ts';

/**
 * The liveness sweep (docs/decisions/0161). Each cron run claims PROBES_PER_RUN agents, the stalest first
 * with a fair share per owner, probes the first message's worth itself and hands the rest to the
 * LIVENESS_QUEUE in messages of PROBES_PER_MESSAGE addresses; each queue invocation probes one message.
 *
 * Limits of one Worker invocation (1,000 subrequests, 30 s of CPU by default): a queue invocation makes at
 * most PROBES_PER_MESSAGE fetches and 2 D1 calls (under even the free plan's 50); the cron makes 2 D1 calls for
 * the claim, the inline share's fetches and writes, and one queue call per MESSAGES_PER_SEND messages, and its
 * CPU is a few thousand short strings, the same at any registry size.
 *
 * Period: every agent is probed once per ⌈probeable agents / PROBES_PER_RUN⌉ runs. With the cron every 5 minutes,
 * 4,000 a run is 1,152,000 agents a day: a million agents within 24 hours.
 */
export const PROBES_PER_RUN = 4_000;
export const PROBES_PER_MESSAGE = 40;
/** Queues' sendBatch takes at most 100 messages and 256 KB; 40 addresses are ~2.7 KB. */
const MESSAGES_PER_SEND = 50;
/** An agent is due again a day after its last probe: the period the sweep keeps at up to 1,152,000 agents. */
const PROBE_PERIOD_MS = 24 * 3_600_000;
/** How far past the stalest PROBES_PER_RUN the fair share looks for other owners' agents. */
const FAIR_SHARE_WINDOW = 4;
/** A claim no consumer settled (a lost message) lapses, and its agent is due again. */
const CLAIM_MINUTES = 30;

export interface ProbeMessage {
  addresses: string[];
}

export interface SweepSummary extends ProbeSummary {
  claimed: number;
  queued: number;
}

/**
 * Claims the run's agents in one statement. It reads the stalest FAIR_SHARE_WINDOW × PROBES_PER_RUN probeable,
 * unclaimed agents (agents_probe_due: never probed first, then by last probe). Agents due (never probed, or
 * last probed a PROBE_PERIOD ago) come before the others; among the due, owners take turns, each owner's
 * stalest first, until PROBES_PER_RUN are taken. A backlog of one owner's fleet (a hundred thousand agents
 * registered at once) cannot hold back other owners' due agents, and no due agent waits behind one that is not.
 */
function claimStatement(db: D1Database, now: Date): D1PreparedStatement {
  return db
    .prepare(
      `WITH stalest AS (
         SELECT address, account_id, last_probe_at, coalesce(last_probe_at < ?4, 1) AS due FROM agents INDEXED BY agents_probe_due
         WHERE is_active = 1 AND account_id IS NOT NULL AND (url IS NOT NULL OR endpoints != '[]')
           AND NOT EXISTS (SELECT 1 FROM liveness_claims c WHERE c.address = agents.address)
         ORDER BY last_probe_at, address LIMIT ?1),
       turns AS (
         SELECT address, last_probe_at, due,
           row_number() OVER (PARTITION BY account_id, due ORDER BY last_probe_at, address) AS turn FROM stalest)
       INSERT INTO liveness_claims (address, claimed_at)
       SELECT address, ?3 FROM turns WHERE true ORDER BY due DESC, turn, last_probe_at, address LIMIT ?2
       ON CONFLICT (address) DO NOTHING
       RETURNING address`,
    )
    .bind(FAIR_SHARE_WINDOW * PROBES_PER_RUN, PROBES_PER_RUN, now.toISOString(), new Date(now.getTime() - PROBE_PERIOD_MS).toISOString());
}

/**
 * One run over every agent shard (docs/scale.md): each shard claims its own PROBES_PER_RUN (each is a registry
 * of its own for the period); the cron probes the home shard's first message itself and queues the rest.
 */
export async function sweepLiveness(env: RegistryEnv, now: Date): Promise<SweepSummary> {
  const lapsed = new Date(now.getTime() - CLAIM_MINUTES * 60_000).toISOString();
  const claims = await Promise.all(
    agentShards(env).all.map(async (db) => {
      const [, claimed] = await db.batch<{ address: string }>([
        db.prepare('DELETE FROM liveness_claims WHERE claimed_at < ?').bind(lapsed),
        claimStatement(db, now),
      ]);
      return claimed!.results.map((row) => row.address);
    }),
  );
  const inline = claims[0]!.slice(0, PROBES_PER_MESSAGE);
  const messages: ProbeMessage[] = [];
  for (const [shard, addresses] of claims.entries())
    for (let i = shard === 0 ? PROBES_PER_MESSAGE : 0; i < addresses.length; i += PROBES_PER_MESSAGE)
      messages.push({ addresses: addresses.slice(i, i + PROBES_PER_MESSAGE) });
  for (let i = 0; i < messages.length; i += MESSAGES_PER_SEND)
    await env.LIVENESS_QUEUE.sendBatch(messages.slice(i, i + MESSAGES_PER_SEND).map((body) => ({ body })));
  const probed = await probeMessage(env, { addresses: inline }, now);
  return { ...probed, claimed: claims.reduce((sum, addresses) => sum + addresses.length, 0), queued: messages.length };
}

/**
 * One message's probes: the agents still probeable among its addresses (one D1 read), their verdicts (one D1
 * batch), on the shard that owns them (a message's addresses come from one shard's claim).
 */
export async function probeMessage(env: RegistryEnv, message: ProbeMessage, now: Date): Promise<ProbeSummary> {
  const addresses = message.addresses.slice(0, PROBES_PER_MESSAGE);
  const shards = agentShards(env);
  const db = addresses[0] === undefined ? env.DB : shards.all[shards.ownerIndex(addresses[0])]!;
  const rows = await probeableRows(db, addresses);
  return probeRows(db, rows, addresses, { ...DEFAULT_PROBE, allowPrivate: env.ALLOW_PRIVATE_URLS === 'true' }, now);
}
