import type { MetricKind } from './metrics.ts';

/** How figures read in answers: $391.04B, 25.3%, $6.08, +2.0%, -1.3 pts. */

function formatMoney(value: number): string {
  const sign = value < 0 ? '-' : '';
  const size = Math.abs(value);
  if (size >= 1e9) return `${sign}$${(size / 1e9).toFixed(2)}B`;
  if (size >= 1e6) return `${sign}$${(size / 1e6).toFixed(2)}M`;
  return `${sign}$${Math.round(size).toLocaleString('en-US')}`;
}

const formatPercent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;

export function formatValue(kind: MetricKind, value: number): string {
  if (kind === 'ratio') return formatPercent(value);
  if (kind === 'per_share') return `${value < 0 ? '-' : ''}$${Math.abs(value).toFixed(2)}`;
  return formatMoney(value);
}

const signed = (text: string, value: number) => (value > 0 ? `+${text}` : value < 0 ? `-${text}` : text);

/** Relative change of money and per-share figures. */
function formatGrowth(from: number, to: number): string {
  if (from === 0) return 'n/a';
  const change = (to - from) / Math.abs(from);
  return signed(`${Math.abs(change * 100).toFixed(1)}%`, Number((change * 100).toFixed(1)));
}

/** Change of a ratio in percentage points. */
function formatPoints(from: number, to: number): string {
  const points = (to - from) * 100;
  return signed(`${Math.abs(points).toFixed(1)} pts`, Number(points.toFixed(1)));
}

export function formatChange(kind: MetricKind, from: number, to: number): string {
  return kind === 'ratio' ? formatPoints(from, to) : formatGrowth(from, to);
}
