import { env, listDurableObjectIds, SELF } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { analysis, ask, deliver, poll, reply, SPECIALIST } from './helpers/conversation.ts';
import { MAX_HELD_POLLS_PER_REQUEST } from '../../workers/router/src/answer-slots.ts';
import { expireRequest } from './helpers/expire.ts';
import { installFakeNetwork, type FakeNetwork } from './helpers/fake-network.ts';

let network: FakeNetwork;
beforeEach(() => {
  network = installFakeNetwork(SPECIALIST.address);
  network.registered.push(SPECIALIST.address);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const body = async (response: Response) => ({ status: response.status, json: await response.json() });

describe('GET /api/get-response?request_id=…', () => {
  it('answers waiting until the answer is filed, then the answer on every poll until it expires', async () => {
    const requestId = await ask(network);
    expect(await body(await poll(requestId))).toEqual({ status: 200, json: { status: 'waiting' } });
    await deliver(reply(requestId, analysis('Net income rose.')));
    expect(await body(await poll(requestId))).toEqual({ status: 200, json: analysis('Net income rose.') });
    expect(await body(await poll(requestId))).toEqual({ status: 200, json: analysis('Net income rose.') });
  });

  it('keeps concurrent requests apart: each poll gets its own answer', async () => {
    const ids = await Promise.all(['one', 'two', 'three'].map((question) => ask(network, question)));
    await Promise.all(ids.map((id, index) => deliver(reply(id, analysis(`answer ${index}`)))));
    for (const [index, id] of ids.entries()) expect((await body(await poll(id))).json).toEqual(analysis(`answer ${index}`));
  });

  it('forgets the request when its time is up (Durable Object alarm): 404, and a late answer is refused', async () => {
    const requestId = await ask(network);
    await deliver(reply(requestId, analysis('soon gone')));
    await expireRequest(requestId);
    const expired = await body(await poll(requestId));
    expect(expired.status).toBe(404);
    expect(expired.json).toMatchObject({ error: expect.any(String), code: 'unknown_request', param: 'request_id' });
    expect((await deliver(reply(requestId, analysis('late')))).status).toBe(404);
  });

  it('answers 404 for an id the router never issued', async () => {
    const unknown = await body(await poll(crypto.randomUUID()));
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ error: expect.any(String), code: 'unknown_request' });
  });

  it('answers 400 for an id that is not a request id', async () => {
    const bad = await body(await poll('not-a-uuid'));
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ error: expect.any(String), param: 'request_id' });
  });
});

describe('GET /api/get-response?request_id=…&wait=… (a long poll)', () => {
  it('holds the poll while the request waits and answers it with the answer as soon as it is filed', async () => {
    const requestId = await ask(network);
    let settled = false;
    const held = poll(requestId, 20).finally(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(settled).toBe(false);
    expect((await deliver(reply(requestId, analysis('Held, then answered.')))).status).toBe(200);
    expect(await body(await held)).toEqual({ status: 200, json: analysis('Held, then answered.') });
  });

  it('answers at once when the answer is already there, and waiting once the wait is over when it is not', async () => {
    const answered = await ask(network, 'first');
    await deliver(reply(answered, analysis('already here')));
    expect(await body(await poll(answered, 20))).toEqual({ status: 200, json: analysis('already here') });
    const pending = await ask(network, 'second');
    expect(await body(await poll(pending, 1))).toEqual({ status: 200, json: { status: 'waiting' } });
  });

  it('ends the wait when the request expires: 404, as for any expired request', async () => {
    const requestId = await ask(network);
    const held = poll(requestId, 20);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expireRequest(requestId);
    const expired = await body(await held);
    expect(expired.status).toBe(404);
    expect(expired.json).toMatchObject({ code: 'unknown_request' });
  });

  it.each(['26', '-1', '1.5', 'soon'])('refuses wait=%s with a 400 naming wait', async (wait) => {
    const requestId = await ask(network);
    const refused = await body(await poll(requestId, wait));
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ error: expect.stringContaining('wait'), param: 'wait' });
  });

  it('refuses wait without request_id: the global slot is not waited on', async () => {
    const refused = await body(await poll(undefined, 5));
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ error: expect.stringContaining('request_id'), param: 'wait' });
  });
});

describe('GET /api/get-response without request_id (the spec’s global slot, off by default)', () => {
  it('is a 400 naming request_id, and no answer of a request reaches anyone who polls without its id', async () => {
    const requestId = await ask(network, 'a private question');
    expect((await deliver(reply(requestId, analysis('a private answer')))).status).toBe(200);
    const response = await body(await poll());
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ code: 'missing_request_id', param: 'request_id' });
    expect(JSON.stringify(response.json)).not.toContain('private');
  });
});

describe('a request the specialist refuses', () => {
  it('ends with a clear 502 instead of waiting forever', async () => {
    network.specialistStatus = 400;
    const response = await SELF.fetch('http://router.test/api/send-request', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ input: 'refused question' }),
    });
    expect(response.status).toBe(502);
    const failed = (await response.json()) as { error: string; code: string };
    expect(failed).toMatchObject({ code: 'undeliverable', error: expect.stringContaining('http_400') });
    expect(failed.error).toContain(SPECIALIST.address);
    expect(failed.error).not.toContain('refused by the test');
    expect(failed.error).not.toContain('specialist.test');
  });
});

describe('where the slots live', () => {
  it('many requests and polls of made-up ids share a bounded set of Durable Objects', async () => {
    // Under the router's limit of questions per client; the made-up polls are many.
    const asked = await Promise.all(Array.from({ length: 10 }, (_, index) => ask(network, `question ${index}`)));
    for (let index = 0; index < 60; index++) expect((await poll(crypto.randomUUID())).status).toBe(404);
    expect((await listDurableObjectIds(env.ANSWER_SLOTS)).length).toBeLessThanOrEqual(32);
    expect(new Set(asked).size).toBe(10);
  });

  it('requests whose slots share a shard keep apart: one expires, the other still answers', async () => {
    const [first, second] = ['aa000000-0000-4000-8000-000000000001', 'aa000000-0000-4000-8000-000000000002'];
    expect(await ask(network, 'first', first)).toBe(first);
    expect(await ask(network, 'second', second)).toBe(second);
    await deliver(reply(second, analysis('still here')));
    await expireRequest(first);
    expect((await poll(first)).status).toBe(404);
    expect(await body(await poll(second))).toEqual({ status: 200, json: analysis('still here') });
  });
});

describe('long polls of one request', () => {
  it('holds MAX_HELD_POLLS_PER_REQUEST (four) at a time; the others are answered at once, and the held ones get the answer when it is filed', async () => {
    const extra = 3;
    const requestId = await ask(network, 'held by many');
    const started = Date.now();
    const answeredAt: number[] = [];
    const polls = Array.from({ length: MAX_HELD_POLLS_PER_REQUEST + extra }, () =>
      poll(requestId, 20).then(async (response) => {
        answeredAt.push(Date.now() - started);
        return body(response);
      }),
    );
    await vi.waitFor(() => expect(answeredAt.length).toBe(extra), { timeout: 5000 });
    expect(answeredAt.every((ms) => ms < 5000)).toBe(true);
    expect((await deliver(reply(requestId, analysis('for the held ones')))).status).toBe(200);
    const results = await Promise.all(polls);
    expect(results.filter((result) => JSON.stringify(result.json) === JSON.stringify({ status: 'waiting' }))).toHaveLength(extra);
    expect(results.filter((result) => JSON.stringify(result.json) === JSON.stringify(analysis('for the held ones')))).toHaveLength(
      MAX_HELD_POLLS_PER_REQUEST,
    );
  });
});
