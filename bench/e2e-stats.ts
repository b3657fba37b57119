/** Timestamps (ms) of one request: client send, router sent, specialist accepted, router filed, client saw. */
export interface Sample {
  start: number;
  sent: number;
  delivered: number;
  filed: number;
  seen: number;
}

export const HOPS = [
  { key: 'discover', label: 'router: registry search + own agents, open slot', from: 'start', to: 'sent' },
  { key: 'deliver', label: 'delivery: specialist webhook accepted', from: 'sent', to: 'delivered' },
  { key: 'answer', label: 'specialist team, chat, EDGAR; reply filed', from: 'delivered', to: 'filed' },
  { key: 'poll', label: 'router filed → client poll saw it', from: 'filed', to: 'seen' },
] as const satisfies readonly { key: string; label: string; from: keyof Sample; to: keyof Sample }[];

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

export function summarise(samples: Sample[]) {
  const total = figures(samples.map((s) => s.seen - s.start));
  const hops = Object.fromEntries(
    HOPS.map((hop) => {
      const hopFigures = figures(samples.map((s) => s[hop.to] - s[hop.from]));
      return [hop.key, { ...hopFigures, share: hopFigures.mean / total.mean }];
    }),
  ) as Record<HopKey, ReturnType<typeof figures> & { share: number }>;
  return { count: samples.length, total, available: figures(samples.map((s) => s.filed - s.start)), hops };
}
