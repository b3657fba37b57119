import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { Identity } from '../../lib/identity/index.ts';
import { accountKey, call, createAgent, GREETER, json, logLine, putCode, start, storageValue } from './helpers.ts';
import { envelopeText, Greeting, peerContext, Reply, submit } from './peer.ts';

/**
 * Python's schema digest of `class Request(Model): request: str` (shared/vectors/envelope.json,
 * "Request(request: str)", computed by uagents-core), and a Python identity from shared/vectors/identity.json.
 */
const PYTHON_REQUEST_DIGEST = 'model:59e3c8304bb68c45e7d3381ee2f5636ac7d7c0c76525fca1554e28ea1017cf0c';
const PYTHON_HELLO_0 = { seed: 'hello', index: 0, address: 'agent1q29vflfydpn3w74w89qnfpr99fzgvm48t62e3s9tuqgl9fkksxsq6yusyxy' };

async function runningGreeter() {
  const key = await accountKey();
  const agent = await createAgent(key, 'greeter');
  await putCode(key, agent.address, GREETER);
  await json(call(key, 'POST', '/v1/hosting/secrets', { address: agent.address, name: 'SUFFIX', secret: '!' }));
  expect((await start(key, agent.address)).running).toBe(true);
  return { key, address: agent.address };
}

describe('hosted agents talk over signed envelopes', () => {
  it('answers a TypeScript agent: the reply is signed by the hosted agent and verified by the sender', async () => {
    const { key, address } = await runningGreeter();
    const ctx = peerContext();
    const [reply, status] = await ctx.sendAndReceive(address, Greeting({ text: 'ts' }), { response: Reply, timeout: 20_000 });
    expect(status).toMatchObject({ status: 'delivered', endpoint: 'http://registry.example.com/v1/hosting/submit' });
    expect(reply).toMatchObject({ sender: address, payload: { text: 'hello, ts!', count: 1 } });
    const line = await logLine(key, address, `greeted by ${ctx.address} with ts`);
    expect(line).toMatchObject({ log_level: 'info', log_type: 'execution' });
    expect(await storageValue(key, address, 'count')).toBe('1');
    // Again: the stored counter moves on.
    const [second] = await ctx.sendAndReceive(address, Greeting({ text: 'again' }), { response: Reply, timeout: 20_000 });
    expect(second?.payload).toEqual({ text: 'hello, again!', count: 2 });
  });

  it("takes a Python agent's message: the same model digest as uagents-core, a Python identity as sender; a handler that answers nothing is answered {} as Agentverse's submit answers", async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'python friend');
    await putCode(key, agent.address, {
      'agent.ts': `import { defineAgent, model, z } from 'rendezvous/agent';
const Request = model('Request', z.object({ request: z.string() }));
const agent = defineAgent({ name: 'python friend' });
agent.onMessage(Request, async (ctx, sender, message) => {
  await ctx.storage.set('last', { sender, request: message.request, digest: Request.digest });
});
export default agent;
`,
    });
    await start(key, agent.address);
    const python = Identity.fromSeed(PYTHON_HELLO_0.seed, PYTHON_HELLO_0.index);
    expect(python.address).toBe(PYTHON_HELLO_0.address);
    const response = await submit(envelopeText(python, agent.address, PYTHON_REQUEST_DIGEST, { request: "What is Apple's revenue?" }));
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toEqual({});
    expect(JSON.parse((await storageValue(key, agent.address, 'last'))!)).toEqual({
      sender: PYTHON_HELLO_0.address,
      request: "What is Apple's revenue?",
      digest: PYTHON_REQUEST_DIGEST,
    });
  });

  it('answers plain JSON payloads by shape, whatever the schema digest', async () => {
    const { address } = await runningGreeter();
    const sender = Identity.fromSeed('shape sender', 0);
    const response = await submit(envelopeText(sender, address, `model:${'0'.repeat(64)}`, { request: 'four' }));
    expect(await json(response)).toEqual({ status: 'received', length: 4 });
  });

  it('sends from its own code: one hosted agent messages another through the queue and the registry', async () => {
    const key = await accountKey();
    const receiver = await createAgent(key, 'receiver');
    await putCode(key, receiver.address, GREETER);
    await start(key, receiver.address);
    const sender = await createAgent(key, 'sender');
    await putCode(key, sender.address, {
      'agent.ts': `import { defineAgent, model, z } from 'rendezvous/agent';
const Greeting = model('Greeting', z.object({ text: z.string() }));
const Reply = model('Reply', z.object({ text: z.string(), count: z.number() }));
const agent = defineAgent({ name: 'sender' });
agent.onStartup(async (ctx) => {
  await ctx.send(${JSON.stringify(receiver.address)}, Greeting({ text: 'from a hosted agent' }));
});
agent.onMessage(Reply, async (ctx, sender, reply) => {
  await ctx.storage.set('reply', { sender, text: reply.text });
});
export default agent;
`,
    });
    await start(key, sender.address);
    await logLine(key, receiver.address, `greeted by ${sender.address} with from a hosted agent`, 30_000);
    await expect
      .poll(() => storageValue(key, sender.address, 'reply'), { timeout: 30_000, interval: 200 })
      .toBe(JSON.stringify({ sender: receiver.address, text: 'hello, from a hosted agent' }));
  });

  it('a stopped agent refuses messages for now (503, retry-after): nothing handled, nothing lost once it starts again', async () => {
    const { key, address } = await runningGreeter();
    await json(call(key, 'POST', `/v1/hosting/agents/${address}/stop`));
    const text = envelopeText(Identity.fromSeed('a patient sender', 0), address, Greeting.digest, { text: 'later' });
    const refused = await submit(text);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(await storageValue(key, address, 'count')).toBeNull();
    await start(key, address);
    expect((await submit(text)).status).toBe(200);
    expect(await storageValue(key, address, 'count')).toBe('1');
  });

  it('a handler that throws is logged and answered 500 (the sender retries); the agent keeps serving', async () => {
    const key = await accountKey();
    const agent = await createAgent(key, 'fragile');
    await putCode(key, agent.address, {
      'agent.ts': `import { defineAgent, z } from 'rendezvous/agent';
const agent = defineAgent({ name: 'fragile' });
agent.onPayload(z.object({ fail: z.boolean() }), async (ctx, sender, payload) => {
  if (payload.fail) throw new Error('handler exploded');
  return { fine: true };
});
export default agent;
`,
    });
    await start(key, agent.address);
    const sender = Identity.fromSeed('fragile sender', 0);
    const digest = `model:${'1'.repeat(64)}`;
    expect((await submit(envelopeText(sender, agent.address, digest, { fail: true }))).status).toBe(500);
    expect((await logLine(key, agent.address, 'handler exploded')).log_level).toBe('erro');
    expect(await json(submit(envelopeText(sender, agent.address, digest, { fail: false })))).toEqual({ fine: true });
  });

  it('refuses envelopes not for a hosted agent, or forged', async () => {
    const { address } = await runningGreeter();
    const stranger = Identity.fromSeed('nobody hosts this', 0).address;
    expect((await submit(envelopeText(Identity.fromSeed('x', 0), stranger, Greeting.digest, { text: 'x' }))).status).toBe(404);
    const forged = JSON.parse(envelopeText(Identity.fromSeed('x', 0), address, Greeting.digest, { text: 'x' })) as Record<string, unknown>;
    forged.sender = Identity.fromSeed('someone else', 0).address;
    expect((await submit(JSON.stringify(forged))).status).toBe(401);
    expect((await SELF.fetch('http://hosting.test/v1/hosting/submit', { method: 'HEAD' })).status).toBe(200);
  });

  it("refusals of the agent's code keep the platform's shape with the code senders read; the submit path's own are {detail}", async () => {
    const { address } = await runningGreeter();
    const sender = Identity.fromSeed('refused sender', 0);
    const invalid = {
      error: { message: expect.stringMatching(/Greeting/), type: 'invalid_envelope', param: null, code: 'invalid_payload' },
    };
    expect(await json(submit(envelopeText(sender, address, Greeting.digest, { text: 5 })), 400)).toEqual(invalid);
    const unknown = await json<{ error: { type: string; code: string } }>(
      submit(envelopeText(sender, address, `model:${'0'.repeat(64)}`, { nope: 1 })),
      400,
    );
    expect(unknown.error).toMatchObject({ type: 'invalid_envelope', code: 'unknown_schema' });
    const forged = JSON.parse(envelopeText(sender, address, Greeting.digest, { text: 'x' })) as Record<string, unknown>;
    forged.sender = Identity.fromSeed('someone else', 0).address;
    expect((await json<{ error: { code: string } }>(submit(JSON.stringify(forged)), 401)).error.code).toBe('bad_signature');
    const stranger = Identity.fromSeed('nobody hosts this', 0).address;
    expect(await json(submit(envelopeText(sender, stranger, Greeting.digest, { text: 'x' })), 404)).toEqual({
      detail: 'no hosted agent has this address',
    });
    expect(await json(submit('not json'), 400)).toEqual({ detail: expect.any(String) });
  });
});
