import { describe, expect, it } from 'vitest';
import { Identity } from '../../lib/identity/index.ts';
import type { HostedAgent } from '../../schemas/hosting.ts';
import { accountKey, call, createAgent, isRunning, GREETER, json, logLine, putCode, start, storageValue } from './helpers.ts';
import { timedSubmit } from './peer.ts';

/**
 * Isolation of tenants in time (issue 22, finding 4): tenant B's code loops, spins or allocates without end;
 * tenant A's agent keeps answering within its normal latency, B is stopped with the reason in its logs, and
 * hosting keeps serving. Local workerd runs every isolate on one thread and enforces no CPU limit, so what
 * stops B here is the platform's own guard (guest/guard.ts) and watchdog (runtime/watchdog.ts).
 */
const sender = Identity.fromSeed('watchdog test sender', 0);

const message = (address: string, payload: unknown, schemaDigest?: string) => timedSubmit(sender, address, payload, schemaDigest);

/** A's greeter, running, and its normal latency: the slowest of three messages. */
async function tenantA(): Promise<{ address: string; normalMs: number }> {
  const key = await accountKey();
  const agent = await createAgent(key, 'tenant A');
  await putCode(key, agent.address, GREETER);
  await start(key, agent.address);
  let normalMs = 0;
  for (let index = 0; index < 3; index += 1) {
    const answer = await message(agent.address, { text: 'warm' });
    expect(answer.status).toBe(200);
    normalMs = Math.max(normalMs, answer.ms);
  }
  return { address: agent.address, normalMs };
}

async function tenantB(name: string, code: string): Promise<{ key: string; address: string }> {
  const key = await accountKey();
  const agent = await createAgent(key, name);
  await putCode(key, agent.address, {
    'agent.ts': `import { defineAgent, z } from 'rendezvous/agent';\nconst agent = defineAgent({ name: 'b' });\n${code}\nexport default agent;\n`,
  });
  return { key, address: agent.address };
}

/** Slack over A's normal latency while B runs away: B's code is stopped after half a second of running. */
const SLACK_MS = 1_500;

describe('a runaway tenant does not stall the others', () => {
  const runaways: [string, string][] = [
    ['a handler that spins for 5 s', 'const t = Date.now(); while (Date.now() - t < 5000) {}'],
    ['a handler that loops forever', 'while (true) {}'],
    [
      'a handler that recurses forever through callbacks',
      'const spin = (n) => [n].map((m) => spin(m + 1)); try { spin(0); } catch { for (;;) {} }',
    ],
    [
      'a handler that allocates 2 GB',
      'const kept = []; for (let i = 0; i < 64; i++) kept.push(new Uint8Array(32 * 1024 * 1024).fill(1)); return { size: kept.length };',
    ],
    ['a handler that catches the guard and loops on', 'for (;;) { try { while (true) {} } catch {} }'],
  ];
  for (const [what, body] of runaways) {
    it(`${what}: A answers within its normal latency; B is stopped, and its logs say why`, async () => {
      const a = await tenantA();
      const b = await tenantB(what, `agent.onPayload(z.object({ go: z.literal(true) }), () => { ${body} });`);
      await start(b.key, b.address);
      const runaway = message(b.address, { go: true }, 'model:runaway');
      let settled = false;
      void runaway.finally(() => {
        settled = true;
      });
      // A's messages, one after another, from before B's code runs until after it is stopped.
      const began = Date.now();
      let slowestMs = 0;
      while (!settled || Date.now() - began < 1_000) {
        const answer = await message(a.address, { text: 'still there?' });
        expect(answer.status).toBe(200);
        slowestMs = Math.max(slowestMs, answer.ms);
      }
      expect(slowestMs).toBeLessThan(a.normalMs + SLACK_MS);
      expect((await runaway).status).toBe(500);
      expect((await logLine(b.key, b.address, 'stopped: ')).log_entry).toMatch(/budget/);
      expect(await isRunning(b.key, b.address)).toBe(false);
      expect((await message(b.address, { go: true }, 'model:runaway')).status).toBe(503);
      expect((await message(a.address, { text: 'and now?' })).status).toBe(200);
    });
  }

  it('a startup handler that loops forever stops its agent; an interval that does the same, too', async () => {
    const a = await tenantA();
    const startup = await tenantB('startup loop', 'agent.onStartup(() => { while (true) {} });');
    await start(startup.key, startup.address);
    expect((await logLine(startup.key, startup.address, 'stopped: ')).log_entry).toMatch(/startup/);
    expect(await isRunning(startup.key, startup.address)).toBe(false);

    const interval = await tenantB('interval loop', 'agent.onInterval({ period: 1 }, () => { for (;;) {} });');
    await start(interval.key, interval.address);
    expect((await logLine(interval.key, interval.address, 'stopped: ', 15_000)).log_entry).toMatch(/interval/);
    expect(await isRunning(interval.key, interval.address)).toBe(false);
    expect((await message(a.address, { text: 'fine' })).status).toBe(200);
  });

  it('an agent stopped for its budget starts again when its owner starts it, and honest work within the budget runs', async () => {
    const b = await tenantB(
      'sometimes runaway',
      `agent.onPayload(z.object({ go: z.literal(true) }), () => { while (true) {} });
agent.onPayload(z.object({ work: z.number() }), async (ctx, _sender, payload) => {
  let sum = 0;
  for (let i = 0; i < payload.work; i++) sum += Math.sqrt(i);
  await ctx.storage.set('sum', Math.round(sum));
});`,
    );
    await start(b.key, b.address);
    expect((await message(b.address, { go: true }, 'model:runaway')).status).toBe(500);
    expect(await isRunning(b.key, b.address)).toBe(false);
    await start(b.key, b.address);
    expect((await message(b.address, { work: 200_000 }, 'model:work')).status).toBe(200);
    expect(Number(await storageValue(b.key, b.address, 'sum'))).toBeGreaterThan(0);
  });

  it('code that names the guard itself is refused at load, so it cannot shadow it', async () => {
    const b = await tenantB('shadow', 'const __rdv_guard = () => {};\nagent.onStartup(() => { while (true) {} });');
    const started = await json<HostedAgent>(call(b.key, 'POST', `/v1/hosting/agents/${b.address}/start`));
    expect(started).toMatchObject({ running: false, compiled: false });
    expect((await logLine(b.key, b.address, 'failed to load')).log_entry).toContain('__rdv_guard');
  });
});
