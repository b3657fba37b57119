import { isPrivateOrLoopbackUrl } from '../../../../lib/net/index.ts';
import { deriveStatus, webhookOf } from '../agents/status.ts';

/**
 * Liveness probe of registered webhooks (Cron Trigger). Bounded: at most `batch` agents per run, the
 * least recently probed first, `concurrency` at a time, each within `timeoutMs`. A webhook answers when
 * it returns any HTTP status below 500 (a webhook may refuse HEAD and still be up).
 */
export interface ProbeOptions {
  batch: number;
  concurrency: number;
  timeoutMs: number;
  allowPrivate: boolean;
}

export const DEFAULT_PROBE: Omit<ProbeOptions, 'allowPrivate'> = { batch: 50, concurrency: 6, timeoutMs: 3000 };

interface ProbeRow {
  address: string;
  url: string | null;
  endpoints: string;
  is_active: number;
}

export interface ProbeSummary {
  probed: number;
  answered: number;
  skipped: number;
}

async function probe(url: string, timeoutMs: number): Promise<{ ok: boolean; detail: string }> {
  try {
    const response = await fetch(url, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return { ok: response.status < 500, detail: `HTTP ${response.status}` };
  } catch (error) {
    return { ok: false, detail: (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : String((error as Error).message ?? error).slice(0, 200) };
  }
}

function endpointsOf(text: string): { url: string }[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((item): item is { url: string } => typeof item?.url === 'string') : [];
  } catch {
    return [];
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
      const endpoints = endpointsOf(row.endpoints);
      const webhook = webhookOf({ url: row.url, endpoints });
      if (!webhook || (!options.allowPrivate && isPrivateOrLoopbackUrl(webhook))) {
        summary.skipped += 1;
        continue;
      }
      const result = await probe(webhook, options.timeoutMs);
      summary.probed += 1;
      if (result.ok) summary.answered += 1;
      const status = deriveStatus({ url: row.url, endpoints, is_active: row.is_active, last_probe_ok: result.ok ? 1 : 0 });
      // Only if the webhook is still the one probed: a re-registration meanwhile starts unprobed.
      await db
        .prepare('UPDATE agents SET last_probe_at = ?, last_probe_ok = ?, last_probe_detail = ?, status = ? WHERE address = ? AND url IS ? AND endpoints = ?')
        .bind(now.toISOString(), result.ok ? 1 : 0, result.detail, status, row.address, row.url, row.endpoints)
        .run();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  return summary;
}
