import type { AnalysisItem } from '../../../schemas/messages.ts';

/** What one poll of the router found. */
export type PollOutcome = { kind: 'waiting' } | { kind: 'answered'; analysis: AnalysisItem[] } | { kind: 'error'; message: string };

export type PollEnd = Exclude<PollOutcome, { kind: 'waiting' }> | { kind: 'timeout' };

/** One poll of the router for the request's answer; it must give up (reject) when `signal` aborts. */
export type Poll = (signal: AbortSignal) => Promise<PollOutcome>;

export type PollLimits = {
  /**
   * Least time from the start of one poll to the start of the next: a poll the router held (a long poll,
   * `waitSeconds`) is followed at once, one it answered at once waits out the rest of the interval.
   */
  intervalMs: number;
  /** How long the router may hold a poll until the answer is filed (GET /api/get-response `wait`). */
  waitSeconds: number;
  /** The whole loop's deadline, counted from `start`: the spec's 120 s. */
  timeoutMs: number;
  /** How long one poll may take before it is aborted and the next one is scheduled. */
  requestTimeoutMs: number;
  /**
   * Polls in a row that may fail to reach the router before the loop ends with the failure: a dropped connection
   * or a network blip is ridden out, a router that stays down is reported within seconds.
   */
  unreachablePolls: number;
};

export const POLL_LIMITS: PollLimits = {
  intervalMs: 1000,
  waitSeconds: 20,
  timeoutMs: 120_000,
  requestTimeoutMs: 30_000,
  unreachablePolls: 3,
};

/**
 * Polls one request until it is answered, fails or times out. At most one loop runs per poller: starting
 * a new one stops the previous, and `stop` (called when the view closes) cancels the timers and the poll in
 * flight. The first poll goes at once (the router holds it until the answer is filed); polls never overlap:
 * each is scheduled after the previous one ended, no sooner than `intervalMs` after that one started. A
 * poll that hangs is aborted after `requestTimeoutMs`, and the deadline ends the loop on time even while a
 * poll is in flight. A poll that cannot reach the router is tried again, on the same schedule, until
 * `unreachablePolls` in a row have failed.
 */
export function createPoller(limits: PollLimits = POLL_LIMITS) {
  let stopCurrent: (() => void) | undefined;

  function start(poll: Poll, onEnd: (end: PollEnd) => void): void {
    stop();
    let ended = false;
    let inFlight: AbortController | undefined;
    let nextPoll: ReturnType<typeof setTimeout> | undefined;
    let pollTimeout: ReturnType<typeof setTimeout> | undefined;
    let unreachable = 0;
    const end = () => {
      ended = true;
      clearTimeout(deadline);
      clearTimeout(nextPoll);
      clearTimeout(pollTimeout);
      inFlight?.abort();
      stopCurrent = undefined;
    };
    const finish = (outcome: PollEnd) => {
      if (ended) return;
      end();
      onEnd(outcome);
    };
    const deadline = setTimeout(() => finish({ kind: 'timeout' }), limits.timeoutMs);
    const tick = async () => {
      const startedAt = Date.now();
      const controller = new AbortController();
      inFlight = controller;
      pollTimeout = setTimeout(() => controller.abort(), limits.requestTimeoutMs);
      let outcome: PollOutcome;
      try {
        outcome = await poll(controller.signal);
        unreachable = 0;
      } catch (error) {
        // Aborted: stopped (ended) or timed out, in which case the next poll tries again; else unreachable.
        const message = `cannot reach the router (${(error as Error).message})`;
        const givingUp = !controller.signal.aborted && ++unreachable >= limits.unreachablePolls;
        outcome = givingUp ? { kind: 'error', message } : { kind: 'waiting' };
      } finally {
        clearTimeout(pollTimeout);
      }
      if (ended) return;
      if (outcome.kind !== 'waiting') return finish(outcome);
      nextPoll = setTimeout(() => void tick(), Math.max(0, startedAt + limits.intervalMs - Date.now()));
    };
    nextPoll = setTimeout(() => void tick(), 0);
    stopCurrent = end;
  }

  function stop(): void {
    stopCurrent?.();
  }

  return { start, stop };
}
