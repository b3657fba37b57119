import { beforeAll, describe, expect, it } from 'vitest';
import { Identity } from '../../lib/identity/index.ts';
import { agentsRegistered, addressOf, postJson, settle } from './helpers.ts';

beforeAll(agentsRegistered);

describe('agents message each other', () => {
  it('alice sends Ping to bob through the queue; bob answers Pong in the same session; each arrives once', async () => {
    const [alice, bob] = [await addressOf('alice'), await addressOf('bob')];
    const { session } = await postJson<{ session: string }>('/test/alice/send', { to: 'bob', text: 'hello bob', count: 3 });

    const pings = await settle({ agent: 'bob', kind: 'received', session }, 3);
    const bySeq = (event: { payload: unknown }) => (event.payload as { seq: number }).seq;
    expect(pings.sort((a, b) => bySeq(a) - bySeq(b)).map((event) => [event.model, event.sender, event.payload])).toEqual(
      [0, 1, 2].map((seq) => ['Ping', alice, { text: 'hello bob', seq }]),
    );
    const pongs = await settle({ agent: 'alice', kind: 'received', session }, 3);
    expect(pongs.map((event) => event.sender)).toEqual([bob, bob, bob]);
    expect(pongs.map(bySeq).sort()).toEqual([0, 1, 2]);
    expect(pongs.every((event) => event.model === 'Pong' && (event.payload as { text: string }).text === 'pong: hello bob')).toBe(true);
  });

  it('bob sends to alice too', async () => {
    const { session } = await postJson<{ session: string }>('/test/bob/send', { to: 'alice', text: 'hi alice' });
    const [ping] = await settle({ agent: 'alice', kind: 'received', session }, 1);
    expect(ping).toMatchObject({ model: 'Ping', sender: await addressOf('bob'), payload: { text: 'hi alice', seq: 0 } });
    expect(await settle({ agent: 'bob', kind: 'received', session }, 1)).toHaveLength(1);
  });

  it('sendAndReceive returns the reply correlated by session, with its status', async () => {
    const session = crypto.randomUUID();
    const { reply, status } = await postJson<{ reply: unknown; status: unknown }>('/test/alice/send-and-receive', {
      to: 'bob',
      text: 'sync?',
      seq: 7,
      session,
    });
    expect(reply).toEqual({
      sender: await addressOf('bob'),
      session,
      schemaDigest: expect.stringMatching(/^model:[0-9a-f]{64}$/),
      payload: { text: 'pong: sync?', seq: 7 },
    });
    expect(status).toEqual({
      status: 'delivered',
      detail: 'reply received',
      destination: await addressOf('bob'),
      endpoint: 'http://bob.test/bob/webhook',
      session,
    });
    // The reply came back in the HTTP response: nothing is queued to alice.
    const [ping] = await settle({ agent: 'bob', kind: 'received', session }, 1);
    expect(ping!.payload).toEqual({ text: 'sync?', seq: 7 });
    expect(await settle({ agent: 'alice', kind: 'received', session }, 0)).toEqual([]);
  });

  it('sendAndReceive to an agent nobody registered fails with a status, not an exception', async () => {
    const stranger = Identity.fromSeed('an agent nobody registered', 0).address;
    const { reply, status } = await postJson<{ reply: unknown; status: { status: string; detail: string } }>(
      '/test/alice/send-and-receive',
      { to: stranger, text: 'anyone?' },
    );
    expect(reply).toBeNull();
    expect(status.status).toBe('failed');
    expect(status.detail).toMatch(/not in the registry's almanac|no endpoint/);
  });
});
