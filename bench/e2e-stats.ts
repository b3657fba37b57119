/**
 * One request's timeline, ms. Timestamps: client send, router sent, specialist accepted, router filed, client
 * saw (one machine, one clock). Durations (NaN when not read): the router's registry search (its Server-Timing),
 * and the specialist's queue wait, team, chat, EDGAR and answer filing (its timing log lines).
 */
export interface Sample {
  start: number;
  sent: number;
  delivered: number;
  filed: number;
  seen: number;
  discover: number;
  queued: number;
  team: number;
  chat: number;
  edgar: number;
  reply: number;
}

interface Hop {
  key: string;
  label: string;
  ms: (sample: Sample) => number;
}

export const HOPS = [
  { key: 'router', label: 'router: send-request in, rate limit, slot open', ms: (s) => s.sent - s.start - (s.discover || 0) },
  { key: 'search', label: 'registry search (router; 0 when cached)', ms: (s) => s.discover },
  { key: 'deliver', label: 'delivery: specialist webhook accepted', ms: (s) => s.delivered - s.sent },
  { key: 'queued', label: 'specialist: analysis queue wait', ms: (s) => s.queued },
  { key: 'team', label: 'specialist: team (rules, plan, draft)', ms: (s) => s.team },
  { key: 'chat', label: 'specialist: chat model', ms: (s) => s.chat },
  { key: 'edgar', label: 'specialist: EDGAR (tickers, facts, search)', ms: (s) => s.edgar },
  { key: 'reply', label: 'answer filing: reply delivered, slot filed', ms: (s) => s.reply },
  { key: 'poll', label: 'router filed → client poll saw it', ms: (s) => s.seen - s.filed },
] as const satisfies readonly Hop[];

type HopKey = (typeof HOPS)[number]['key'];

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function figures(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), mean };
}

/** Per hop: p50, p99, mean and its share of the mean send → seen; a hop no sample timed is left out. */
export function summarise(samples: Sample[]) {
  const total = figures(samples.map((s) => s.seen - s.start));
  const hops: Partial<Record<HopKey, ReturnType<typeof figures> & { share: number }>> = {};
  for (const hop of HOPS) {
    const values = samples.map(hop.ms).filter((value) => !Number.isNaN(value));
    if (!values.length) continue;
    const hopFigures = figures(values);
    hops[hop.key] = { ...hopFigures, share: hopFigures.mean / total.mean };
  }
  return { count: samples.length, total, available: figures(samples.map((s) => s.filed - s.start)), hops };
}
