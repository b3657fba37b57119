import { policyFetch, type UrlPolicy } from '../../../../lib/net/index.ts';
import { agentColumns } from '../agents/columns.ts';
import type { AgentRow } from '../agents/row.ts';
import { deriveStatus, webhookOf } from '../agents/status.ts';

/**
 * Liveness probe of registered webhooks, for the sweep (sweep.ts): `concurrency` at a time, each within
 * `timeoutMs`. A webhook answers when it returns any HTTP status below 500 (a webhook may refuse HEAD and still be up).
 */
interface ProbeOptions {
  concurrency: number;
  timeoutMs: number;
  allowPrivate: boolean;
}

export const DEFAULT_PROBE: Omit<ProbeOptions, 'allowPrivate'> = { concurrency: 6, timeoutMs: 3000 };

type ProbeRow = Pick<AgentRow, 'address' | 'url' | 'endpoints' | 'is_active'>;

export interface ProbeSummary {
  probed: number;
  answered: number;
  skipped: number;
}

/** A redirect is an answer: the probe follows none. Null when the policy refuses the URL (not probed). */
async function probe(url: string, timeoutMs: number, policy: UrlPolicy): Promise<{ ok: boolean; detail: string } | null> {
  try {
    const sent = await policyFetch(url, { method: 'HEAD', signal: AbortSignal.timeout(timeoutMs) }, { policy });
    if (!sent.ok) return null;
    await sent.response.body?.cancel();
    return { ok: sent.response.status < 500, detail: `HTTP ${sent.response.status}` };
  } catch (error) {
    return {
      ok: false,
      detail:
        (error as Error).name === 'TimeoutError'
          ? `no answer within ${timeoutMs} ms`
          : String((error as Error).message ?? error).slice(0, 200),
    };
  }
}

/**
 * Probes the given agents, `concurrency` at a time, and writes every verdict in one D1 batch (one subrequest,
 * whatever the count), settling their sweep claims (liveness_claims) in the same batch. An agent whose URL the
 * policy refuses is not probed; its attempt time is still written, so the sweep moves on past it. `claimed`: the
 * addresses the sweep handed out, settled whether or not they were still probeable.
 */
export async function probeRows(
  db: D1Database,
  rows: ProbeRow[],
  claimed: readonly string[],
  options: ProbeOptions,
  now: Date,
): Promise<ProbeSummary> {
  const summary: ProbeSummary = { probed: 0, answered: 0, skipped: 0 };
  const writes: D1PreparedStatement[] = [];
  const queue = [...rows];
  const at = now.toISOString();
  const worker = async () => {
    for (let row = queue.shift(); row; row = queue.shift()) {
      const endpoints = agentColumns.endpoints(row.endpoints);
      const webhook = webhookOf({ url: row.url, endpoints });
      const result = webhook ? await probe(webhook, options.timeoutMs, { allowPrivate: options.allowPrivate }) : null;
      if (!result) {
        summary.skipped += 1;
        writes.push(
          db
            .prepare("UPDATE agents SET last_probe_at = ?, last_probe_detail = 'not probed: the URL policy refuses it' WHERE address = ?")
            .bind(at, row.address),
        );
        continue;
      }
      summary.probed += 1;
      if (result.ok) summary.answered += 1;
      const status = deriveStatus({ url: row.url, endpoints, is_active: row.is_active, last_probe_ok: result.ok ? 1 : 0 });
      // Only if the webhook is still the one probed: a re-registration meanwhile starts unprobed.
      writes.push(
        db
          .prepare(
            'UPDATE agents SET last_probe_at = ?, last_probe_ok = ?, last_probe_detail = ?, status = ? WHERE address = ? AND url IS ? AND endpoints = ?',
          )
          .bind(at, result.ok ? 1 : 0, result.detail, status, row.address, row.url, row.endpoints),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  if (claimed.length)
    writes.push(db.prepare(`DELETE FROM liveness_claims WHERE address IN (${claimed.map(() => '?').join(', ')})`).bind(...claimed));
  if (writes.length) await db.batch(writes);
  return summary;
}

/** The probe columns of the named agents that are still probeable (one read; at most PROBES_PER_MESSAGE addresses). */
export async function probeableRows(db: D1Database, addresses: readonly string[]): Promise<ProbeRow[]> {
  if (addresses.length === 0) return [];
  const { results } = await db
    .prepare(
      `SELECT address, url, endpoints, is_active FROM agents
       WHERE address IN (${addresses.map(() => '?').join(', ')}) AND is_active = 1 AND account_id IS NOT NULL AND (url IS NOT NULL OR endpoints != '[]')`,
    )
    .bind(...addresses)
    .all<ProbeRow>();
  return results;
}
