import { beforeAll, describe, expect, it } from 'vitest';
import { agentsRegistered, addressOf, postJson, settle } from './helpers.ts';

beforeAll(agentsRegistered);

const bySeq = (event: { payload: unknown }) => (event.payload as { seq: number }).seq;

describe('delivery is at least once, handling exactly once', () => {
  it('a receiver that is down for its first 3 deliveries still receives each message once', async () => {
    await postJson('/test/bob/fail', { mode: 'down', count: 3 });
    const { session } = await postJson<{ session: string }>('/test/alice/send', { to: 'bob', text: 'are you there?', count: 2 });
    const received = await settle({ agent: 'bob', kind: 'received', session }, 2);
    expect(received.map(bySeq).sort()).toEqual([0, 1]);
    // Bob's replies went through too, once each.
    expect((await settle({ agent: 'alice', kind: 'received', session }, 2)).map(bySeq).sort()).toEqual([0, 1]);
    expect(await settle({ agent: 'alice', kind: 'dead_letter', session }, 0)).toEqual([]);
  });

  it('a handler that throws on its first 2 deliveries runs to completion once: the replay ledger forgets a failed delivery', async () => {
    await postJson('/test/bob/fail', { mode: 'throw', count: 2 });
    const { session } = await postJson<{ session: string }>('/test/alice/send', { to: 'bob', text: 'third time lucky' });
    const received = await settle({ agent: 'bob', kind: 'received', session }, 1);
    expect(received).toHaveLength(1);
    expect(received[0]!.payload).toEqual({ text: 'third time lucky', seq: 0 });
  });

  it('a message that never gets through ends in the dead-letter queue, handed to the sender', async () => {
    await postJson('/test/bob/fail', { mode: 'down', count: 100 });
    try {
      const { session } = await postJson<{ session: string }>('/test/alice/send', { to: 'bob', text: 'into the void' });
      const [letter] = await settle({ agent: 'alice', kind: 'dead_letter', session }, 1, 45_000);
      expect(letter!.payload).toEqual({ target: await addressOf('bob'), reason: "not delivered within the outbox queue's retries" });
      expect(await settle({ agent: 'bob', kind: 'received', session }, 0)).toEqual([]);
    } finally {
      await postJson('/test/bob/fail', { mode: 'down', count: 0 });
    }
  });
});
