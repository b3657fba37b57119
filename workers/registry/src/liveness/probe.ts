import { policyFetch, type UrlPolicy } from '../../../../lib/net/index.ts';
import { agentColumns } from '../agents/columns.ts';
import type { AgentRow } from '../agents/row.ts';
import { deriveStatus, webhookOf } from '../agents/status.ts';

/**
 * Liveness probe of registered webhooks (Cron Trigger). Bounded: at most `batch` agents per run, the
 * least recently probed first, `concurrency` at a time, each within `timeoutMs`. A webhook answers when
 * it returns any HTTP status below 500 (a webhook may refuse HEAD and still be up).
 */
interface ProbeOptions {
  batch: number;
  concurrency: number;
  timeoutMs: number;
  allowPrivate: boolean;
}

export const DEFAULT_PROBE: Omit<ProbeOptions, 'allowPrivate'> = { batch: 50, concurrency: 6, timeoutMs: 3000 };

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

export async function probeAgents(db: D1Database, options: ProbeOptions, now = new Date()): Promise<ProbeSummary> {
  const { results } = await db
    .prepare(
      `SELECT address, url, endpoints, is_active FROM agents
       WHERE is_active = 1 AND account_id IS NOT NULL AND (url IS NOT NULL OR endpoints != '[]')
       ORDER BY last_probe_at IS NOT NULL, last_probe_at LIMIT ?`,
    )
    .bind(options.batch)
    .all<ProbeRow>();
  const summary: ProbeSummary = { probed: 0, answered: 0, skipped: 0 };
  const queue = [...results];
  const worker = async () => {
    for (let row = queue.shift(); row; row = queue.shift()) {
      const endpoints = agentColumns.endpoints(row.endpoints);
      const webhook = webhookOf({ url: row.url, endpoints });
      const result = webhook ? await probe(webhook, options.timeoutMs, { allowPrivate: options.allowPrivate }) : null;
      if (!result) {
        summary.skipped += 1;
        continue;
      }
      summary.probed += 1;
      if (result.ok) summary.answered += 1;
      const status = deriveStatus({ url: row.url, endpoints, is_active: row.is_active, last_probe_ok: result.ok ? 1 : 0 });
      // Only if the webhook is still the one probed: a re-registration meanwhile starts unprobed.
      await db
        .prepare(
          'UPDATE agents SET last_probe_at = ?, last_probe_ok = ?, last_probe_detail = ?, status = ? WHERE address = ? AND url IS ? AND endpoints = ?',
        )
        .bind(now.toISOString(), result.ok ? 1 : 0, result.detail, status, row.address, row.url, row.endpoints)
        .run();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  return summary;
}
