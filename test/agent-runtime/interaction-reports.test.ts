import { describe, expect, it, vi } from 'vitest';
import { addressOf, agentsRegistered, events, postJson, settle } from './helpers.ts';

interface Report {
  status: number;
  target: string | null;
  counted: boolean | null;
}

async function reportsTo(target: string): Promise<Report[]> {
  return (await events({ kind: 'interaction_report' })).map((event) => event.payload as Report).filter((r) => r.target === target);
}

describe('interaction reports', () => {
  it('stop for a pair once the registry counts no more of it today (its daily cap per pair)', async () => {
    await agentsRegistered();
    const bob = await addressOf('bob');
    // More than the registry's daily cap of 10 per pair: it answers `counted: false` beyond it.
    const { session } = await postJson<{ session: string }>('/test/alice/send', { to: 'bob', text: 'busy day', count: 14 });
    await settle({ agent: 'bob', kind: 'received', session }, 14);
    let before: Report[] = [];
    await vi.waitFor(
      async () => {
        before = await reportsTo(bob);
        // Either this isolate already knew the pair is capped (no report at all), or the registry said so.
        expect(before.length === 0 || before.some((report) => report.counted === false)).toBe(true);
      },
      { timeout: 10_000, interval: 200 },
    );

    const more = await postJson<{ session: string }>('/test/alice/send', { to: 'bob', text: 'still busy', count: 3 });
    await settle({ agent: 'bob', kind: 'received', session: more.session }, 3);
    expect(await reportsTo(bob)).toHaveLength(before.length);
  }, 60_000);

  it('of a burst go one at a time per pair: the registry hears its daily cap and one more, not every message', async () => {
    await agentsRegistered();
    const alice = await addressOf('alice');
    // A fresh pair (bob → alice), its 14 messages delivered at once by the outbox's batch.
    const { session } = await postJson<{ session: string }>('/test/bob/send', { to: 'alice', text: 'burst', count: 14 });
    await settle({ agent: 'alice', kind: 'received', session }, 14);
    await vi.waitFor(async () => expect((await reportsTo(alice)).some((report) => report.counted === false)).toBe(true), {
      timeout: 10_000,
      interval: 200,
    });
    const reports = await reportsTo(alice);
    expect(reports.filter((report) => report.counted === true)).toHaveLength(10);
    expect(reports).toHaveLength(11);
  }, 60_000);
});
