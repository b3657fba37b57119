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
});
