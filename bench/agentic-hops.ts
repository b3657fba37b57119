import type { StreamedTurn } from './agentic-turn.ts';
import { percentile } from './e2e-stats.ts';
import type { Timings } from './timing-log.ts';

interface Timed {
  turn: StreamedTurn;
  /** The specialist's phases of this turn's question (its timing log), or null when not found. */
  specialist: Timings | null;
}

const at = (turn: StreamedTurn, step: string) => turn.steps.get(step) ?? Number.NaN;

/** Each hop of a turn, in order (NaN where a turn has none: no search when the session continues); together they make request → [DONE]. */
export const AGENTIC_HOPS = [
  { key: 'accept', label: 'chat: key, limits, response begun', ms: ({ turn }: Timed) => turn.headers - turn.start },
  { key: 'search', label: 'chat: session opened, registry searched', ms: ({ turn }: Timed) => at(turn, 'search') - turn.headers },
  {
    key: 'choose',
    label: 'chat: candidates ranked, agent chosen',
    ms: ({ turn }: Timed) => at(turn, 'choose') - (turn.steps.has('search') ? at(turn, 'search') : turn.headers),
  },
  { key: 'deliver', label: 'chat → specialist: signed, sent, taken', ms: ({ turn }: Timed) => at(turn, 'sent') - at(turn, 'choose') },
  { key: 'queued', label: 'specialist: analysis queue wait', ms: ({ specialist }: Timed) => specialist?.queued ?? Number.NaN },
  {
    key: 'work',
    label: 'specialist: team, chat model, EDGAR',
    ms: ({ specialist: s }: Timed) => (s ? s.team + s.chat + s.edgar : Number.NaN),
  },
  // The specialist's reply phase ends when the chat webhook answers, after the waiter was woken: not a hop of its own.
  // Its queue wait starts when the webhook queued the job, before the chat saw the webhook's answer: by that overlap
  // this hop can come out below zero.
  {
    key: 'back',
    label: 'specialist → chat: answer signed, sent, verified, filed',
    ms: ({ turn, specialist: s }: Timed) =>
      at(turn, 'answered') - at(turn, 'sent') - (s ? s.queued + s.team + s.chat + s.edgar : Number.NaN),
  },
  { key: 'relay', label: 'chat: answer relayed, [DONE] seen', ms: ({ turn }: Timed) => turn.done - at(turn, 'answered') },
] as const;

function figures(values: number[]) {
  const sorted = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
  return { count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), mean };
}

/** Per hop: p50, p99, and its share of the mean turn (hops a turn lacks count as 0 in the share). */
export function reportHops(timed: Timed[]): void {
  const totalMean = figures(timed.map(({ turn }) => turn.done - turn.start)).mean;
  const ms = (value: number) => `${value.toFixed(0).padStart(6)} ms`;
  for (const hop of AGENTIC_HOPS) {
    const values = timed.map((entry) => hop.ms(entry));
    const { count, p50, p99 } = figures(values);
    if (!count) continue;
    const share = values.reduce((sum, value) => sum + (Number.isNaN(value) ? 0 : value), 0) / timed.length / totalMean;
    console.log(
      `  ${hop.label.padEnd(52)} p50 ${ms(p50)}  p99 ${ms(p99)}  ${(share * 100).toFixed(1).padStart(5)} % of mean  (${count} turns)`,
    );
  }
}
