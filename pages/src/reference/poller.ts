import { POLL_INTERVAL_MS, POLL_TIMEOUT_MS } from './router-config.ts';
import { getResponse, type PollOutcome } from './router-api.ts';

export type PollEnd = Exclude<PollOutcome, { kind: 'waiting' }> | { kind: 'timeout' };

/**
 * Polls one request until it is answered, fails or times out. At most one loop runs per poller: starting
 * a new one stops the previous, and `stop` (called when the view closes) cancels the pending timer and the
 * request in flight. Each poll is scheduled only after the previous one finished, so polls never overlap.
 */
export function createPoller() {
  let stopCurrent: (() => void) | undefined;

  function start(requestId: string, onEnd: (end: PollEnd) => void): void {
    stop();
    const controller = new AbortController();
    const deadline = Date.now() + POLL_TIMEOUT_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    stopCurrent = () => {
      clearTimeout(timer);
      controller.abort();
    };
    const finish = (end: PollEnd) => {
      stopCurrent = undefined;
      onEnd(end);
    };
    const tick = async () => {
      let outcome: PollOutcome;
      try {
        outcome = await getResponse(requestId, controller.signal);
      } catch (error) {
        if (controller.signal.aborted) return;
        outcome = { kind: 'error', message: `cannot reach the router (${(error as Error).message})` };
      }
      if (controller.signal.aborted) return;
      if (outcome.kind !== 'waiting') return finish(outcome);
      if (Date.now() >= deadline) return finish({ kind: 'timeout' });
      timer = setTimeout(tick, POLL_INTERVAL_MS);
    };
    timer = setTimeout(tick, POLL_INTERVAL_MS);
  }

  function stop(): void {
    stopCurrent?.();
    stopCurrent = undefined;
  }

  return { start, stop };
}
