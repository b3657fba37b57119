import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { Log, LogLevel, Miniflare, type WorkerOptions } from 'miniflare';
import { buildEnvelope, parseEnvelope, schemaDigest, serializeEnvelope } from '../lib/envelope/index.ts';
import { Identity } from '../lib/identity/index.ts';
import { seal } from '../workers/hosting/src/agents/vault.ts';
import { PING, PONG } from './hosting-native/echo-model.ts';

/**
 * bench:hosting — a message round trip (what sendAndReceive does on the wire: a signed envelope POSTed with
 * the sync header, the receiver's signed reply in the answer, its signature checked here) to an echo agent
 * hosted by the hosting Worker (Worker Loader) and to the same agent deployed as its own Worker (lib/agent,
 * bench/hosting-native). Warm: the same code again and again. First load: hosted, new code (a new digest, so
 * the loader compiles and starts a new isolate); native, the first message after the runtime restarted.
 * One Miniflare (workerd) instance, reached through its dispatcher: no fixed ports, no shared stack.
 */
const ROOT = resolve(import.meta.dirname, '..');
const WARM = Number(process.env.BENCH_ROUND_TRIPS ?? 200);
const FIRST_LOADS = Number(process.env.BENCH_FIRST_LOADS ?? 10);
const SEED_KEY = 'bench hosting seed key';
const HOSTED_SEED = 'bench hosting hosted echo';
const NATIVE_SEED = 'bench hosting native echo';
const TARGET_RATIO = 1.5;

const ECHO_AGENT = (variant: number) => `import { defineAgent, model, z } from 'rendezvous/agent';

const Ping = model(${JSON.stringify(PING.name)}, z.object({ text: z.string() }));
const Pong = model(${JSON.stringify(PONG.name)}, z.object({ text: z.string() }));
const agent = defineAgent({ name: 'bench-echo' });

agent.onMessage(Ping, async (ctx, sender, message) => {
  await ctx.send(sender, Pong({ text: message.text }));
});

export default agent;
// variant ${variant}
`;

const run = promisify(execFile);

async function bundle(config: string, outdir: string): Promise<string> {
  await run(join(ROOT, 'node_modules/.bin/wrangler'), ['deploy', '--dry-run', '--outdir', outdir, '-c', config], {
    cwd: ROOT,
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1' },
  });
  const script = readdirSync(outdir).find((file) => file.endsWith('.js'));
  if (!script) throw new Error(`wrangler deploy --dry-run wrote no script for ${config}`);
  return join(outdir, script);
}

/** The registry as the hosting Worker's bindings need it to exist; the bench never calls it. */
const REGISTRY_STUB = `import { WorkerEntrypoint } from 'cloudflare:workers';
export class KeyService extends WorkerEntrypoint { async authenticate() { return { ok: false, status: 401, message: 'bench' }; } }
export default { fetch: () => new Response('{}', { headers: { 'content-type': 'application/json' } }) };`;

function workers(hostingScript: string, nativeScript: string): WorkerOptions[] {
  const common = { modules: true, compatibilityDate: '2026-04-20' } as const;
  return [
    {
      ...common,
      name: 'rendezvous-hosting',
      scriptPath: hostingScript,
      modulesRoot: dirname(hostingScript),
      // The guest SDK travels as text (wrangler's rule in workers/hosting/wrangler.toml).
      modulesRules: [{ type: 'Text', include: ['**/*.txt'] }],
      bindings: {
        PUBLIC_URL: 'http://hosting.bench',
        REGISTRY_URL: 'http://registry.bench',
        ALLOW_PRIVATE_URLS: 'true',
        ALLOWED_ORIGINS: '',
        HOSTING_SEED_KEY: SEED_KEY,
        REGISTRY_API_KEY: '',
      },
      d1Databases: { DB: 'hosting' },
      durableObjects: {
        HOSTED_AGENT: { className: 'HostedAgent', useSQLite: true },
        REPLAY_LEDGER: { className: 'ReplayLedger', useSQLite: true },
      },
      queueProducers: { HOSTING_OUTBOX: { queueName: 'bench-hosting-outbox' } },
      workerLoaders: { LOADER: {} },
      serviceBindings: { REGISTRY: { name: 'rendezvous-registry', entrypoint: 'KeyService' }, REGISTRY_API: 'rendezvous-registry' },
    },
    {
      ...common,
      name: 'bench-hosting-native',
      scriptPath: nativeScript,
      modulesRoot: dirname(nativeScript),
      bindings: { SEED: NATIVE_SEED },
      durableObjects: { REPLAY_LEDGER: { className: 'ReplayLedger', useSQLite: true } },
      queueProducers: { OUTBOX: { queueName: 'bench-hosting-native-outbox' } },
    },
    { ...common, name: 'rendezvous-registry', script: REGISTRY_STUB },
  ];
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;
const ms = (value: number) => `${value.toFixed(1)} ms`;

const sender = Identity.fromSeed('bench hosting sender', 0);
const pingDigest = schemaDigest(PING.name, PING.schema);
const pongDigest = schemaDigest(PONG.name, PONG.schema);
let nonce = 0;

/** One round trip: a signed Ping in, the signed Pong out of the same answer, checked as sendAndReceive checks it. */
async function roundTrip(mf: Miniflare, worker: string, url: string, target: string): Promise<number> {
  const envelope = serializeEnvelope(
    buildEnvelope({
      sender,
      target,
      schemaDigest: pingDigest,
      payload: { text: 'bench' },
      expires: Math.floor(Date.now() / 1000) + 600,
      nonce: ++nonce,
    }),
  );
  const fetcher = await mf.getWorker(worker);
  const started = performance.now();
  const response = await fetcher.fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-uagents-connection': 'sync' },
    body: envelope,
  });
  const text = await response.text();
  const elapsed = performance.now() - started;
  const reply = parseEnvelope(text);
  if (response.status !== 200 || !reply.ok) throw new Error(`${worker} answered ${response.status}: ${text.slice(0, 300)}`);
  if (reply.envelope.sender !== target || reply.envelope.schema_digest !== pongDigest)
    throw new Error(`${worker}: the reply is not the agent's Pong`);
  return elapsed;
}

function summary(label: string, samples: number[]) {
  return { label, p50: percentile(samples, 50), p99: percentile(samples, 99), n: samples.length };
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'bench-hosting-'));
  const [hostingScript, nativeScript] = await Promise.all([
    bundle('workers/hosting/wrangler.toml', join(work, 'hosting')),
    bundle('bench/hosting-native/wrangler.toml', join(work, 'native')),
  ]);
  const options = {
    host: '127.0.0.1',
    port: 0,
    cf: false,
    log: new Log(LogLevel.WARN),
    defaultPersistRoot: join(work, 'state'),
    workers: workers(hostingScript, nativeScript),
  };
  const mf = new Miniflare(options);
  try {
    await mf.ready;
    const db = await mf.getD1Database('DB', 'rendezvous-hosting');
    for (const migration of await readD1Migrations(join(ROOT, 'workers/hosting/migrations')))
      await db.batch(migration.queries.map((query) => db.prepare(query)));
    const hosted = Identity.fromSeed(HOSTED_SEED, 0).address;
    const native = Identity.fromSeed(NATIVE_SEED, 0).address;
    const setCode = async (variant: number) => {
      const code = JSON.stringify([{ name: 'agent.ts', value: ECHO_AGENT(variant), language: 'typescript' }]);
      const digest = createHash('sha256').update(code).digest('hex');
      await db.prepare('UPDATE hosted_agents SET code = ?1, code_digest = ?2 WHERE address = ?3').bind(code, digest, hosted).run();
    };
    await db
      .prepare(`INSERT INTO hosted_agents (address, account_id, name, sealed_seed, revision, compiled, running, creation_timestamp)
        VALUES (?1, 'bench', 'bench echo', ?2, 1, 1, 1, ?3)`)
      .bind(hosted, await seal(SEED_KEY, HOSTED_SEED), new Date().toISOString())
      .run();
    await setCode(0);
    const hostedTrip = () => roundTrip(mf, 'rendezvous-hosting', 'http://hosting.bench/v1/hosting/submit', hosted);
    const nativeTrip = () => roundTrip(mf, 'bench-hosting-native', 'http://native.bench/webhook', native);

    const firstHosted: number[] = [];
    for (let variant = 1; variant <= FIRST_LOADS; variant++) {
      await setCode(variant);
      firstHosted.push(await hostedTrip());
    }
    const firstNative: number[] = [];
    for (let i = 0; i < FIRST_LOADS; i++) {
      // A restarted runtime: the native Worker's first message loads its isolate anew.
      await mf.setOptions(options);
      firstNative.push(await nativeTrip());
    }
    // Warm-up, then interleaved so that the machine's load falls on both alike.
    for (let i = 0; i < 20; i++) await Promise.all([hostedTrip(), nativeTrip()]);
    const warmHosted: number[] = [];
    const warmNative: number[] = [];
    for (let i = 0; i < WARM; i++) {
      warmHosted.push(await hostedTrip());
      warmNative.push(await nativeTrip());
    }

    const rows = [
      summary('hosted, warm', warmHosted),
      summary('native, warm', warmNative),
      summary('hosted, first load (new code)', firstHosted),
      summary('native, first load (restarted)', firstNative),
    ];
    console.log(
      `bench:hosting — sendAndReceive round trip (signed Ping → signed Pong) in Miniflare (workerd), ${WARM} warm, ${FIRST_LOADS} first loads`,
    );
    for (const row of rows)
      console.log(`${row.label.padEnd(34)} p50 ${ms(row.p50).padStart(10)}  p99 ${ms(row.p99).padStart(10)}  (n=${row.n})`);
    const ratio = rows[0]!.p50 / rows[1]!.p50;
    const firstRatio = rows[2]!.p50 / rows[3]!.p50;
    console.log(
      `warm ratio hosted/native (p50): ${ratio.toFixed(2)}× (target ≤ ${TARGET_RATIO}×) ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'}`,
    );
    console.log(`first-load ratio hosted/native (p50): ${firstRatio.toFixed(2)}×`);
  } finally {
    await mf.dispose();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
