import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { analysis, ask, deliver, poll, reply, SPECIALIST } from '../router/helpers/conversation.ts';
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
