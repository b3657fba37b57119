import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { Log, LogLevel, Miniflare, type WorkerOptions } from 'miniflare';
import { buildEnvelope, parseEnvelope, schemaDigest, serializeEnvelope } from '../lib/envelope/index.ts';
import { Identity } from '../lib/identity/index.ts';
import { parseKeys } from '../workers/hosting-vault/src/keys.ts';
import { seal } from '../workers/hosting-vault/src/sealing.ts';
import { PING, PONG } from './hosting-native/echo-model.ts';
import { cpuSnapshot } from './process-cpu.ts';

/**
 * bench:hosting — a message round trip (what sendAndReceive does on the wire: a signed envelope POSTed with
 * the sync header, the receiver's signed reply in the answer, its signature checked here) to an echo agent
 * hosted by the hosting Worker (Worker Loader) and to the same agent deployed as its own Worker (lib/agent,
 * bench/hosting-native). Warm: the same code again and again. First load: hosted, new code (a new digest, so
 * the loader compiles and starts a new isolate); native, the first message after the runtime restarted.
 * The same echo agent in Python (uagents, on Pyodide in the guest) beside it: its first load is Pyodide's cold
 * start; for each language the workerd process's CPU and memory growth per new agent isolate are measured too.
 * One Miniflare (workerd) instance, reached through its dispatcher: no fixed ports, no shared stack.
 */
const ROOT = resolve(import.meta.dirname, '..');
const WARM = Number(process.env.BENCH_ROUND_TRIPS ?? 200);
const FIRST_LOADS = Number(process.env.BENCH_FIRST_LOADS ?? 10);
/** The vault's one sealing key (the bench seals its agents' seeds with the vault's own code, as the vault would). */
const SEALING_KEYS = 'bench:bench hosting seed key';
const HOSTED_SEED = 'bench hosting hosted echo';
const PYTHON_SEED = 'bench hosting python echo';
const PYTHON_FIRST_LOADS = Number(process.env.BENCH_PYTHON_FIRST_LOADS ?? 5);
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

const PYTHON_ECHO_AGENT = (variant: number) => `from uagents import Agent, Context, Model


class ${PING.name}(Model):
    text: str


class ${PONG.name}(Model):
    text: str


agent = Agent(name="bench-echo")


@agent.on_message(model=${PING.name})
async def echo(ctx: Context, sender: str, msg: ${PING.name}):
    await ctx.send(sender, ${PONG.name}(text=msg.text))

# variant ${variant}
`;

/** The workerd process Miniflare started (a child of this one) and its resident memory in MB. */
function workerdPid(): number {
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      if (/^Name:\s+workerd$/m.test(status) && new RegExp(`^PPid:\\s+${process.pid}$`, 'm').test(status)) return Number(pid);
    } catch {
      // A process that ended while listed.
    }
  }
  throw new Error('no workerd process started by this bench');
}
const rssMb = (pid: number) => Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const workerdCpuMs = (pid: number) =>
  cpuSnapshot(new Map(), new Map([['workerd', pid]]))
    .get('workerd')
    ?.get('workerd') ?? 0;

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

function workers(hostingScript: string, vaultScript: string, nativeScript: string): WorkerOptions[] {
  const common = { modules: true, compatibilityDate: '2026-04-20' } as const;
  return [
    {
      ...common,
      name: 'rendezvous-hosting',
      scriptPath: hostingScript,
      modulesRoot: dirname(hostingScript),
      // The guest bundles travel as text, Pyodide's wasm and standard library as data (wrangler's default rules).
      modulesRules: [
        { type: 'Text', include: ['**/*.txt'] },
        { type: 'Data', include: ['**/*.bin'] },
      ],
      bindings: {
        PUBLIC_URL: 'http://hosting.bench',
        REGISTRY_URL: 'http://registry.bench',
        ALLOW_PRIVATE_URLS: 'true',
        ALLOWED_ORIGINS: '',
        REGISTRY_API_KEY: '',
      },
      d1Databases: { DB: 'hosting' },
      durableObjects: {
        HOSTED_AGENT: { className: 'HostedAgent', useSQLite: true },
        REPLAY_LEDGER: { className: 'ReplayLedger', useSQLite: true },
      },
      queueProducers: { HOSTING_OUTBOX: { queueName: 'bench-hosting-outbox' } },
      workerLoaders: { LOADER: {} },
      serviceBindings: {
        REGISTRY: { name: 'rendezvous-registry', entrypoint: 'KeyService' },
        REGISTRY_API: 'rendezvous-registry',
        VAULT: { name: 'rendezvous-hosting-vault', entrypoint: 'SealingVault' },
      },
    },
    {
      ...common,
      name: 'rendezvous-hosting-vault',
      scriptPath: vaultScript,
      modulesRoot: dirname(vaultScript),
      bindings: { HOSTING_SEED_KEYS: SEALING_KEYS },
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
  const [hostingScript, vaultScript, nativeScript] = await Promise.all([
    bundle('workers/hosting/wrangler.toml', join(work, 'hosting')),
    bundle('workers/hosting-vault/wrangler.toml', join(work, 'vault')),
    bundle('bench/hosting-native/wrangler.toml', join(work, 'native')),
  ]);
  const options = {
    host: '127.0.0.1',
    port: 0,
    cf: false,
    log: new Log(LogLevel.WARN),
    defaultPersistRoot: join(work, 'state'),
    workers: workers(hostingScript, vaultScript, nativeScript),
  };
  const mf = new Miniflare(options);
  try {
    await mf.ready;
    const db = await mf.getD1Database('DB', 'rendezvous-hosting');
    for (const migration of await readD1Migrations(join(ROOT, 'workers/hosting/migrations')))
      await db.batch(migration.queries.map((query) => db.prepare(query)));
    const hosted = Identity.fromSeed(HOSTED_SEED, 0).address;
    const python = Identity.fromSeed(PYTHON_SEED, 0).address;
    const native = Identity.fromSeed(NATIVE_SEED, 0).address;
    const setCode = async (address: string, variant: number) => {
      const file =
        address === python
          ? { name: 'agent.py', value: PYTHON_ECHO_AGENT(variant), language: 'python' }
          : { name: 'agent.ts', value: ECHO_AGENT(variant), language: 'typescript' };
      const code = JSON.stringify([file]);
      const digest = createHash('sha256').update(code).digest('hex');
      await db.prepare('UPDATE hosted_agents SET code = ?1, code_digest = ?2 WHERE address = ?3').bind(code, digest, address).run();
    };
    for (const [address, seed] of [
      [hosted, HOSTED_SEED],
      [python, PYTHON_SEED],
    ] as const) {
      await db
        .prepare(`INSERT INTO hosted_agents (address, account_id, name, sealed_seed, revision, compiled, running, creation_timestamp)
        VALUES (?1, 'bench', 'bench echo', ?2, 1, 1, 1, ?3)`)
        .bind(address, await seal(parseKeys(SEALING_KEYS)[0]!, seed), new Date().toISOString())
        .run();
      await setCode(address, 0);
    }
    const hostedTrip = () => roundTrip(mf, 'rendezvous-hosting', 'http://hosting.bench/v1/hosting/submit', hosted);
    const pythonTrip = () => roundTrip(mf, 'rendezvous-hosting', 'http://hosting.bench/v1/hosting/submit', python);
    const nativeTrip = () => roundTrip(mf, 'bench-hosting-native', 'http://native.bench/webhook', native);

    /** First loads of new code (each a new isolate), with workerd's CPU time and memory growth per load. */
    const firstLoads = async (address: string, trip: () => Promise<number>, count: number) => {
      const pid = workerdPid();
      const [rssBefore, cpuBefore] = [rssMb(pid), workerdCpuMs(pid)];
      const samples: number[] = [];
      for (let variant = 1; variant <= count; variant++) {
        await setCode(address, variant);
        samples.push(await trip());
      }
      return { samples, cpuMs: (workerdCpuMs(pid) - cpuBefore) / count, rssMb: (rssMb(pid) - rssBefore) / count };
    };
    const firstHostedLoads = await firstLoads(hosted, hostedTrip, FIRST_LOADS);
    const firstPythonLoads = await firstLoads(python, pythonTrip, PYTHON_FIRST_LOADS);
    const firstHosted = firstHostedLoads.samples;
    const firstNative: number[] = [];
    for (let i = 0; i < FIRST_LOADS; i++) {
      // A restarted runtime: the native Worker's first message loads its isolate anew.
      await mf.setOptions(options);
      firstNative.push(await nativeTrip());
    }
    // Warm-up, then interleaved so that the machine's load falls on both alike.
    for (let i = 0; i < 20; i++) await Promise.all([hostedTrip(), nativeTrip(), pythonTrip()]);
    const warmHosted: number[] = [];
    const warmNative: number[] = [];
    const warmPython: number[] = [];
    for (let i = 0; i < WARM; i++) {
      warmHosted.push(await hostedTrip());
      warmNative.push(await nativeTrip());
      warmPython.push(await pythonTrip());
    }

    const rows = [
      summary('hosted, warm', warmHosted),
      summary('native, warm', warmNative),
      summary('hosted, first load (new code)', firstHosted),
      summary('native, first load (restarted)', firstNative),
      summary('hosted Python, warm', warmPython),
      summary('hosted Python, first load (cold)', firstPythonLoads.samples),
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
    for (const [language, loads] of [
      ['TypeScript', firstHostedLoads],
      ['Python', firstPythonLoads],
    ] as const)
      console.log(
        `per new ${language} agent isolate: workerd CPU ${ms(loads.cpuMs)}, workerd RSS +${loads.rssMb.toFixed(1)} MB (mean of ${loads.samples.length})`,
      );
  } finally {
    await mf.dispose();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
