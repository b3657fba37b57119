import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { buildEnvelope, MemoryReplayGuard, parseEnvelope, schemaDigest, serializeEnvelope, verifyEnvelope } from '../lib/envelope/index.ts';
import { Identity } from '../lib/identity/index.ts';
import { waitForHttp } from '../scripts/stack/process.ts';
import { wranglerDev } from '../scripts/stack/wrangler-dev.ts';

/**
 * bench:messaging — messages per second from `send` to the receiving handler between two agents in two
 * `wrangler dev` processes of the lib/agent fixture (test/agent-runtime): alice on :9301 sends Ping
 * through her outbox queue; bob on :9302 verifies (signature, target, expiry, replay ledger) and handles
 * it (one Durable Object write per message), then answers Pong through his own queue. Peers resolve
 * from a static table (no registry in the loop). Also: sendAndReceive round trips, and the CPU cost of
 * envelope verification measured in Node, as a share of the time per message.
 */
const ROOT = resolve(import.meta.dirname, '..');
const PORTS = { alice: 9301, bob: 9302, aliceInspector: 9311, bobInspector: 9312 };
const BURST = Number(process.env.BENCH_MESSAGES ?? 500);
const ROUND_TRIPS = Number(process.env.BENCH_ROUND_TRIPS ?? 100);
const SEEDS = { alice: 'agent-runtime fixture alice', bob: 'agent-runtime fixture bob' };

const eventsSchema = z.object({ events: z.array(z.object({ at: z.number(), payload: z.unknown() })) });

async function json<T>(url: string, schema: z.ZodType<T>, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return schema.parse(await response.json());
}

const post = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function waitForEvents(url: string, count: number, timeoutMs: number): Promise<{ at: number }[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { events } = await json(url, eventsSchema);
    if (events.length >= count) return events;
    if (Date.now() > deadline) throw new Error(`only ${events.length} of ${count} messages arrived within ${timeoutMs} ms`);
    await sleep(100);
  }
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

/** Verification CPU per envelope in this process (workerd hides CPU time from the Worker's own clocks). */
function verificationCost(runs: number) {
  const alice = Identity.fromSeed(SEEDS.alice, 0);
  const bob = Identity.fromSeed(SEEDS.bob, 0);
  const digest = schemaDigest('Ping', z.object({ text: z.string(), seq: z.number().int().default(0) }));
  const bodies = Array.from({ length: runs }, (_, seq) =>
    serializeEnvelope(
      buildEnvelope({
        sender: alice,
        target: bob.address,
        schemaDigest: digest,
        payload: { text: 'bench', seq },
        expires: Math.floor(Date.now() / 1000) + 3600,
        nonce: BigInt(seq),
      }),
    ),
  );
  const guard = new MemoryReplayGuard();
  return (async () => {
    const started = performance.now();
    for (const body of bodies) {
      const parsed = parseEnvelope(body);
      if (!parsed.ok) throw new Error(parsed.message);
      const verified = await verifyEnvelope(parsed.envelope, { self: bob.address, replay: guard, acceptedSchemas: new Set([digest]) });
      if (!verified.ok) throw new Error(verified.message);
    }
    const verifyMs = (performance.now() - started) / runs;
    const signStarted = performance.now();
    for (let seq = 0; seq < runs; seq++)
      buildEnvelope({ sender: alice, target: bob.address, schemaDigest: digest, payload: { text: 'bench', seq }, nonce: BigInt(seq) });
    return { verifyMs, signMs: (performance.now() - signStarted) / runs };
  })();
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'bench-messaging-'));
  const envFile = join(work, 'empty.env');
  writeFileSync(envFile, '');
  const url = (agent: 'alice' | 'bob') => `http://127.0.0.1:${PORTS[agent]}`;
  const addresses = { alice: Identity.fromSeed(SEEDS.alice, 0).address, bob: Identity.fromSeed(SEEDS.bob, 0).address };
  const vars = {
    ALICE_WEBHOOK_URL: `${url('alice')}/alice/webhook`,
    BOB_WEBHOOK_URL: `${url('bob')}/bob/webhook`,
    STATIC_ENDPOINTS: JSON.stringify({ [addresses.alice]: `${url('alice')}/alice/webhook`, [addresses.bob]: `${url('bob')}/bob/webhook` }),
  };
  const common = { root: ROOT, config: 'test/agent-runtime/wrangler.toml', envFile, vars, logDir: work };
  const processes = [
    wranglerDev({ ...common, name: 'alice', port: PORTS.alice, inspectorPort: PORTS.aliceInspector, persistDir: join(work, 'alice') }),
    wranglerDev({ ...common, name: 'bob', port: PORTS.bob, inspectorPort: PORTS.bobInspector, persistDir: join(work, 'bob') }),
  ];
  try {
    for (const service of processes) await waitForHttp(service, '/test/alice/address');
    const send = (count: number) =>
      json(
        `${url('alice')}/test/alice/send`,
        z.object({ session: z.string(), started: z.number(), ms: z.number() }),
        post({ to: addresses.bob, text: 'bench', count }),
      );
    const arrivals = (session: string) => `${url('bob')}/test/events?agent=bob&kind=received&session=${session}`;
    const replies = (session: string) => `${url('alice')}/test/events?agent=alice&kind=received&session=${session}`;

    // Warm-up: isolates, Durable Objects, queue consumers, connections.
    const warm = await send(20);
    await waitForEvents(arrivals(warm.session), 20, 60_000);

    const burst = await send(BURST);
    const arrived = await waitForEvents(arrivals(burst.session), BURST, 180_000);
    const lastArrival = Math.max(...arrived.map((event) => event.at));
    const answered = await waitForEvents(replies(burst.session), BURST, 180_000);
    const lastReply = Math.max(...answered.map((event) => event.at));
    await sleep(2000);
    const duplicates = (await json(arrivals(burst.session), eventsSchema)).events.length - BURST;

    const roundTrips: number[] = [];
    for (let i = 0; i < ROUND_TRIPS; i++) {
      const started = performance.now();
      const result = await json(
        `${url('alice')}/test/alice/send-and-receive`,
        z.object({ status: z.object({ status: z.string() }) }),
        post({ to: addresses.bob, text: 'rt', seq: i }),
      );
      if (result.status.status !== 'delivered') throw new Error(`round trip ${i} failed`);
      roundTrips.push(performance.now() - started);
    }

    const oneWayPerSecond = BURST / ((lastArrival - burst.started) / 1000);
    const cost = await verificationCost(500);
    const perMessageMs = 1000 / oneWayPerSecond;
    console.log(
      `bench:messaging — two wrangler dev processes of the lib/agent fixture (local), ${BURST} messages, ${ROUND_TRIPS} round trips`,
    );
    console.log(
      `  queued send (alice → outbox → bob's handler): ${oneWayPerSecond.toFixed(0)} msg/s one way (enqueue of ${BURST} took ${burst.ms} ms; last arrival after ${((lastArrival - burst.started) / 1000).toFixed(2)} s), duplicates seen by the handler: ${duplicates}`,
    );
    console.log(
      `  with bob's Pong replies back to alice:        ${((2 * BURST) / ((lastReply - burst.started) / 1000)).toFixed(0)} msg/s both ways (${BURST} round trips done after ${((lastReply - burst.started) / 1000).toFixed(2)} s)`,
    );
    console.log(
      `  sendAndReceive (direct, sync reply):          p50 ${percentile(roundTrips, 50).toFixed(1)} ms, p90 ${percentile(roundTrips, 90).toFixed(1)} ms, ${(1000 / (roundTrips.reduce((a, b) => a + b, 0) / roundTrips.length)).toFixed(0)} round trips/s sequential`,
    );
    console.log(
      `  envelope verification (parse + sig + checks, Node, no ledger I/O): ${(cost.verifyMs * 1000).toFixed(0)} µs/msg = ${((cost.verifyMs / perMessageMs) * 100).toFixed(1)} % of the ${perMessageMs.toFixed(2)} ms per message at the queued rate; signing: ${(cost.signMs * 1000).toFixed(0)} µs/msg`,
    );
    console.log(
      `  (each round trip verifies twice: bob verifies the Ping, alice the Pong; the replay-ledger claim is one Durable Object call per message on top)`,
    );
  } finally {
    for (const service of processes) await service.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
