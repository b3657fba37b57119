import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { analysis, ask, deliver, poll, reply, sendRequest, SPECIALIST } from '../router/helpers/conversation.ts';
import { installFakeNetwork, type FakeNetwork } from '../router/helpers/fake-network.ts';

let network: FakeNetwork;
beforeEach(() => {
  network = installFakeNetwork(SPECIALIST.address);
  network.registered.push(SPECIALIST.address);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const body = async (response: Response) => ({ status: response.status, json: await response.json() });

/** Empties the slot whatever earlier tests left in it. */
async function drain() {
  while (((await (await poll()).json()) as { status?: string }).status !== 'waiting');
}

describe('GET /api/get-response without request_id, where the operator turned the spec’s global slot on', () => {
  it('empty: answers waiting', async () => {
    await drain();
    expect(await body(await poll())).toEqual({ status: 200, json: { status: 'waiting' } });
  });

  it('empty → holding on a webhook message; a read returns it and empties the slot', async () => {
    await drain();
    const requestId = await ask(network);
    await deliver(reply(requestId, analysis('held')));
    expect(await body(await poll())).toEqual({ status: 200, json: analysis('held') });
    expect(await body(await poll())).toEqual({ status: 200, json: { status: 'waiting' } });
  });

  it('holding: a second message overwrites the first', async () => {
    await drain();
    const [first, second] = [await ask(network, 'first'), await ask(network, 'second')];
    await deliver(reply(first, analysis('first answer')));
    await deliver(reply(second, analysis('second answer')));
    expect(await body(await poll())).toEqual({ status: 200, json: analysis('second answer') });
    expect(await body(await poll())).toEqual({ status: 200, json: { status: 'waiting' } });
  });

  it('a refused message leaves the slot as it was', async () => {
    await drain();
    await deliver(reply(crypto.randomUUID(), analysis('unsolicited')));
    expect(await body(await poll())).toEqual({ status: 200, json: { status: 'waiting' } });
  });
});

describe('a request that carries its own request_id, where the global slot is on', () => {
  it('is answered in its own slot only: a poll without id never sees it', async () => {
    await drain();
    const clientRequestId = crypto.randomUUID();
    expect(await ask(network, 'What did Apple earn?', clientRequestId)).toBe(clientRequestId);
    await deliver(reply(clientRequestId, analysis('private answer')));
    expect(await body(await poll())).toEqual({ status: 200, json: { status: 'waiting' } });
    expect(await body(await poll(clientRequestId))).toEqual({ status: 200, json: analysis('private answer') });
    expect(await body(await poll())).toEqual({ status: 200, json: { status: 'waiting' } });
  });

  it('does not push an old client’s answer out of the global slot', async () => {
    await drain();
    const old = await ask(network, 'old client');
    const clientRequestId = await ask(network, 'new client', crypto.randomUUID());
    await deliver(reply(old, analysis('old answer')));
    await deliver(reply(clientRequestId, analysis('new answer')));
    expect(await body(await poll())).toEqual({ status: 200, json: analysis('old answer') });
    expect(await body(await poll())).toEqual({ status: 200, json: { status: 'waiting' } });
  });

  it('a request_id already in use is a 409 that sends nothing and leaves the first request as it was', async () => {
    await drain();
    const clientRequestId = await ask(network, 'first', crypto.randomUUID());
    const again = await sendRequest({ input: 'second', request_id: clientRequestId });
    expect(await body(again)).toEqual({
      status: 409,
      json: { error: expect.stringContaining('already in use'), code: 'request_id_in_use', param: 'request_id' },
    });
    expect(network.delivered.filter((d) => d.envelope.session === clientRequestId).map((d) => d.payload)).toEqual([{ request: 'first' }]);
    await deliver(reply(clientRequestId, analysis('first answer')));
    expect(await body(await poll(clientRequestId))).toEqual({ status: 200, json: analysis('first answer') });
    expect(await body(await poll())).toEqual({ status: 200, json: { status: 'waiting' } });
  });

  it.each([
    ['not a UUID', 'abc'],
    ['a number', 42],
    ['empty', ''],
    ['a UUID with trailing text', `${crypto.randomUUID()}x`],
  ])('a request_id that is %s is a 400 that sends nothing', async (_, requestId) => {
    const response = await sendRequest({ input: 'revenue?', request_id: requestId });
    expect(await body(response)).toEqual({
      status: 400,
      json: { error: expect.stringContaining('request_id'), code: 'invalid_parameter', param: 'request_id' },
    });
    expect(network.delivered).toHaveLength(0);
    expect(network.searches).toHaveLength(0);
  });
});
