import { execFile } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { Log, LogLevel, Miniflare, type WorkerOptions } from 'miniflare';
import { unstable_readConfig } from 'wrangler';

/**
 * The benchmarks' runtime: Workers in one Miniflare instance (one workerd process, the runtime `wrangler dev`
 * also runs), each built as `wrangler deploy` builds it and bound as its wrangler config says. What `wrangler
 * dev` adds and the edge does not is left out: its local proxy in front of each Worker, and service bindings
 * that cross from one `wrangler dev` process to another. Each Worker answers on its own socket (a direct
 * socket, no entry Worker in front), so a client's path to it is a plain local HTTP connection.
 */

export interface StackWorker {
  /** Its wrangler config, relative to the root. */
  config: string;
  port: number;
  /** Secrets and var overrides, added to its config's [vars]. */
  vars?: Record<string, string>;
}

export interface MiniflareStackOptions<Name extends string> {
  root: string;
  /** Scratch dir: bundles, the Durable Object state (on disk, as `wrangler dev --persist-to` keeps it), the runtime's log. */
  work: string;
  workers: Record<Name, StackWorker>;
  /**
   * Where D1 lives. Unset: under `work`, migrated here. Set: a `wrangler --persist-to` directory already
   * migrated and seeded by wrangler, used as is (the same files `wrangler dev --persist-to` would open).
   */
  persistTo?: string;
  /** Opens workerd's inspector (`--inspector-addr`) on this port, for reading the isolates' heaps (bench/scale/isolate-heaps.ts). */
  inspectorPort?: number;
}

export interface Stack<Name extends string> {
  urls: Record<Name, string>;
  stop(): Promise<void>;
}

export interface MiniflareStack<Name extends string> extends Stack<Name> {
  /** A D1 binding of one of the stack's Workers, to seed it. */
  d1(worker: Name, binding: string): Promise<D1Database>;
}

const run = promisify(execFile);

function readConfig(root: string, config: string) {
  return unstable_readConfig({ config: join(root, config) }, { hideWarnings: true });
}

/** Bundles a Worker as `wrangler deploy` would (esbuild, the config's rules), without deploying it. */
async function bundle(root: string, config: string, outdir: string): Promise<string> {
  await run(join(root, 'node_modules/.bin/wrangler'), ['deploy', '--dry-run', '--outdir', outdir, '-c', config], {
    cwd: root,
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1' },
  });
  const script = readdirSync(outdir).find((file) => file.endsWith('.js'));
  if (!script) throw new Error(`wrangler deploy --dry-run wrote no script for ${config}`);
  return join(outdir, script);
}

const BENCH_RATE_LIMIT = 1_000_000;

/**
 * A Worker's Miniflare options from its wrangler config: vars, D1, Durable Objects (SQLite-backed as migrated), queues, rate limits, and
 * the service bindings to Workers of this stack (one to a Worker left out stays unbound, as in a deploy without it:
 * the registry's HOSTING answers 501, or workerd would refuse to start).
 */
function workerOptions(root: string, { config, port, vars = {} }: StackWorker, scriptPath: string, stack: Set<string>): WorkerOptions {
  const worker = readConfig(root, config);
  const sqliteClasses = new Set(
    worker.migrations.flatMap((migration: { new_sqlite_classes?: string[] }) => migration.new_sqlite_classes ?? []),
  );
  return {
    name: worker.name!,
    modules: true,
    scriptPath,
    modulesRoot: dirname(scriptPath),
    compatibilityDate: worker.compatibility_date,
    compatibilityFlags: worker.compatibility_flags,
    bindings: { ...(worker.vars as Record<string, string>), ...vars },
    d1Databases: Object.fromEntries(
      worker.d1_databases.map((database: { binding: string; database_id?: string }) => [
        database.binding,
        database.database_id ?? database.binding,
      ]),
    ),
    durableObjects: Object.fromEntries(
      worker.durable_objects.bindings.map((binding: { name: string; class_name: string; script_name?: string }) => [
        binding.name,
        { className: binding.class_name, scriptName: binding.script_name, useSQLite: sqliteClasses.has(binding.class_name) },
      ]),
    ),
    serviceBindings: Object.fromEntries(
      (worker.services ?? [])
        .filter((service: { service: string }) => stack.has(service.service))
        .map((service: { binding: string; service: string; entrypoint?: string }) => [
          service.binding,
          service.entrypoint ? { name: service.service, entrypoint: service.entrypoint } : service.service,
        ]),
    ),
    // Queues as configured (each consumer's batching and retries); local queues dispatch one batch at a time, as wrangler dev's do.
    queueProducers: Object.fromEntries(
      (worker.queues.producers ?? []).map((producer: { binding: string; queue: string }) => [
        producer.binding,
        { queueName: producer.queue },
      ]),
    ),
    queueConsumers: Object.fromEntries(
      (worker.queues.consumers ?? []).map(
        (consumer: {
          queue: string;
          max_batch_size?: number;
          max_batch_timeout?: number;
          max_retries?: number;
          dead_letter_queue?: string;
        }) => [
          consumer.queue,
          {
            maxBatchSize: consumer.max_batch_size,
            maxBatchTimeout: consumer.max_batch_timeout,
            maxRetries: consumer.max_retries,
            deadLetterQueue: consumer.dead_letter_queue,
          },
        ],
      ),
    ),
    // The rate-limit bindings as configured, with a limit no bench reaches: benches measure the Worker, not the limiter.
    ratelimits: Object.fromEntries(
      (worker.ratelimits ?? []).map((limit: { name: string; simple: { period: 10 | 60 } }) => [
        limit.name,
        { simple: { limit: BENCH_RATE_LIMIT, period: limit.simple.period } },
      ]),
    ),
    unsafeDirectSockets: [{ host: '127.0.0.1', port }],
  };
}

export async function startMiniflareStack<Name extends string>(options: MiniflareStackOptions<Name>): Promise<MiniflareStack<Name>> {
  const { root, work, workers, persistTo, inspectorPort } = options;
  const names = Object.keys(workers) as Name[];
  const scripts = await Promise.all(names.map((name) => bundle(root, workers[name].config, join(work, 'bundle', name))));
  const stackNames = new Set(names.map((name) => readConfig(root, workers[name].config).name!));
  mkdirSync(join(work, 'state'), { recursive: true });
  const log = createWriteStream(join(work, 'workerd.log'));
  const mf = new Miniflare({
    host: '127.0.0.1',
    port: 0,
    // Offline: the placeholder request.cf, not the one Miniflare would download.
    cf: false,
    log: new Log(LogLevel.WARN),
    defaultPersistRoot: join(work, 'state'),
    ...(persistTo ? { d1Persist: join(persistTo, 'v3/d1') } : {}),
    ...(inspectorPort === undefined ? {} : { inspectorPort }),
    handleRuntimeStdio(stdout: Readable, stderr: Readable) {
      stdout.pipe(log);
      stderr.pipe(log);
    },
    workers: names.map((name, i) => workerOptions(root, workers[name], scripts[i]!, stackNames)),
  });
  try {
    await mf.ready;
    if (!persistTo)
      await migrate(
        mf,
        root,
        names.map((name) => workers[name].config),
      );
  } catch (error) {
    await mf.dispose();
    throw error;
  }
  return {
    urls: Object.fromEntries(names.map((name) => [name, `http://127.0.0.1:${workers[name].port}`])) as Record<Name, string>,
    d1: (worker, binding) => mf.getD1Database(binding, readConfig(root, workers[worker].config).name) as Promise<D1Database>,
    async stop() {
      await mf.dispose();
      log.end();
    },
  };
}

/** Each D1 database of the stack gets its Worker folder's migrations, statement by statement as `wrangler d1 migrations apply` splits them. */
async function migrate(mf: Miniflare, root: string, configs: string[]) {
  for (const config of configs) {
    const worker = readConfig(root, config);
    for (const database of worker.d1_databases as { binding: string; migrations_dir?: string }[]) {
      const db = await mf.getD1Database(database.binding, worker.name);
      const dir = join(dirname(join(root, config)), database.migrations_dir ?? 'migrations');
      for (const migration of await readD1Migrations(dir)) {
        await db.batch(migration.queries.map((query) => db.prepare(query)));
      }
    }
  }
}
