import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPoller, POLL_LIMITS, type Poll, type PollEnd, type PollOutcome } from '../../pages/src/ask/poller.ts';
import { MAX_POLL_WAIT_SECONDS } from '../../schemas/router-api.ts';

/** A router that takes every poll and never answers: each poll settles only when the client aborts it. */
function hangingPolls() {
  const signals: AbortSignal[] = [];
  const poll: Poll = (signal) => {
    signals.push(signal);
    return new Promise<PollOutcome>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
  };
  return { poll, signals };
}

describe('the reference client’s poller', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ends with a timeout at 120 s although every poll hangs: each poll is aborted after its own timeout, the deadline ends the loop', async () => {
    vi.useFakeTimers();
    const { poll, signals } = hangingPolls();
    const ends: PollEnd[] = [];
    createPoller().start(poll, (end) => ends.push(end));

    await vi.advanceTimersByTimeAsync(POLL_LIMITS.timeoutMs - 1);
    expect(ends).toEqual([]);
    // One poll per request timeout: each hung poll was given up and another sent.
    expect(signals.length).toBe(Math.ceil((POLL_LIMITS.timeoutMs - 1) / POLL_LIMITS.requestTimeoutMs));
    expect(signals.slice(0, -1).every((signal) => signal.aborted)).toBe(true);

    await vi.advanceTimersByTimeAsync(1);
    expect(POLL_LIMITS.timeoutMs).toBe(120_000);
    expect(ends).toEqual([{ kind: 'timeout' }]);
    expect(signals.every((signal) => signal.aborted)).toBe(true);

    const polled = signals.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(signals.length).toBe(polled);
    expect(ends).toHaveLength(1);
  });

  it('polls at once, then once a second while the router answers waiting at once, and reports the answer once', async () => {
    vi.useFakeTimers();
    const outcomes: PollOutcome[] = [
      { kind: 'waiting' },
      { kind: 'waiting' },
      { kind: 'answered', analysis: [{ role: 'filings', name: null, content: 'ok' }] },
    ];
    let polls = 0;
    const ends: PollEnd[] = [];
    createPoller().start(
      async () => outcomes[polls++]!,
      (end) => ends.push(end),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(polls).toBe(1);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(polls).toBe(2);
    expect(ends).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(ends).toEqual([{ kind: 'answered', analysis: [{ role: 'filings', name: null, content: 'ok' }] }]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(polls).toBe(3);
  });

  it('asks for a wait the router grants, and gives each held poll time to come back before aborting it', () => {
    expect(POLL_LIMITS.waitSeconds).toBeGreaterThan(0);
    expect(POLL_LIMITS.waitSeconds).toBeLessThanOrEqual(MAX_POLL_WAIT_SECONDS);
    expect(POLL_LIMITS.requestTimeoutMs).toBeGreaterThan(POLL_LIMITS.waitSeconds * 1000);
  });

  it('follows a poll the router held (a long poll) at once, with no pause between the two', async () => {
    vi.useFakeTimers();
    const started: number[] = [];
    const held: Poll = async () => {
      started.push(Date.now());
      await new Promise((resolve) => setTimeout(resolve, POLL_LIMITS.waitSeconds * 1000));
      return started.length < 3 ? { kind: 'waiting' } : { kind: 'answered', analysis: [] };
    };
    const ends: PollEnd[] = [];
    createPoller().start(held, (end) => ends.push(end));
    await vi.advanceTimersByTimeAsync(3 * POLL_LIMITS.waitSeconds * 1000 + 10);
    expect(ends).toEqual([{ kind: 'answered', analysis: [] }]);
    // Each poll starts when the held one returns (a timer tick later), not an interval after it.
    const gaps = started.slice(1).map((at, index) => at - started[index]! - POLL_LIMITS.waitSeconds * 1000);
    expect(gaps).toHaveLength(2);
    for (const gap of gaps) expect(gap).toBeLessThan(POLL_LIMITS.intervalMs / 10);
  });

  it('rides out polls that cannot reach the router, then reports the answer', async () => {
    vi.useFakeTimers();
    const ends: PollEnd[] = [];
    let polls = 0;
    createPoller().start(
      async () => {
        polls++;
        if (polls <= POLL_LIMITS.unreachablePolls - 1) throw new TypeError('fetch failed');
        return { kind: 'answered', analysis: [] };
      },
      (end) => ends.push(end),
    );
    await vi.advanceTimersByTimeAsync(POLL_LIMITS.unreachablePolls * POLL_LIMITS.intervalMs);
    expect(polls).toBe(POLL_LIMITS.unreachablePolls);
    expect(ends).toEqual([{ kind: 'answered', analysis: [] }]);
  });

  it('ends with an error when polls in a row cannot reach the router, and stop() aborts the poll in flight without reporting an end', async () => {
    vi.useFakeTimers();
    expect(POLL_LIMITS.unreachablePolls).toBe(3);
    const failing = createPoller();
    const ends: PollEnd[] = [];
    let polls = 0;
    failing.start(
      () => {
        polls++;
        return Promise.reject(new TypeError('fetch failed'));
      },
      (end) => ends.push(end),
    );
    await vi.advanceTimersByTimeAsync((POLL_LIMITS.unreachablePolls - 1) * POLL_LIMITS.intervalMs - 1);
    expect(ends).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(ends).toEqual([{ kind: 'error', message: 'cannot reach the router (fetch failed)' }]);
    expect(polls).toBe(POLL_LIMITS.unreachablePolls);

    const { poll, signals } = hangingPolls();
    const stopped = createPoller();
    stopped.start(poll, (end) => ends.push(end));
    await vi.advanceTimersByTimeAsync(1_500);
    expect(signals).toHaveLength(1);
    stopped.stop();
    expect(signals[0]!.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(POLL_LIMITS.timeoutMs);
    expect(ends).toHaveLength(1);
    expect(signals).toHaveLength(1);
  });

  it('against a real HTTP router that accepts each poll and never answers, times out on a short test deadline and closes every connection', async () => {
    const requests: IncomingMessage[] = [];
    const closed: IncomingMessage[] = [];
    const server = createServer((request) => {
      requests.push(request);
      request.socket.on('close', () => closed.push(request));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/get-response?request_id=r1`;
    try {
      const poll: Poll = async (signal) => {
        const response = await fetch(url, { signal });
        await response.json();
        return { kind: 'waiting' };
      };
      const end = await new Promise<PollEnd>((resolve) =>
        createPoller({ ...POLL_LIMITS, intervalMs: 20, waitSeconds: 0, requestTimeoutMs: 150, timeoutMs: 700 }).start(poll, resolve),
      );
      expect(end).toEqual({ kind: 'timeout' });
      expect(requests.length).toBeGreaterThanOrEqual(2);
      await expect.poll(() => closed.length).toBe(requests.length);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
