import { execFile } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { Log, LogLevel, Miniflare, type WorkerOptions } from 'miniflare';
import { unstable_readConfig } from 'wrangler';

/**
 * bench:chat's default runtime: the registry, chat and relay Workers in one Miniflare instance (one workerd
 * process, the runtime `wrangler dev` also runs), each built as `wrangler deploy` builds it and bound as its
 * wrangler config says. What `wrangler dev` adds and the edge does not is left out: its local proxy in front
 * of each Worker, and service bindings that cross from one `wrangler dev` process to another. The chat Worker
 * and the relay each answer on their own socket (a direct socket, no entry Worker in front), so the client's
 * path to them is the same kind of local HTTP connection as its path to the upstream.
 */

export interface MiniflareStackOptions {
  root: string;
  /** Scratch dir: bundles, the D1 and Durable Object state (on disk, as `wrangler dev --persist-to` keeps it), the runtime's log. */
  work: string;
  ports: { registry: number; chat: number; relay: number };
  /** Secrets and var overrides per Worker, added to its config's [vars]. */
  vars: { registry: Record<string, string>; chat: Record<string, string>; relay: Record<string, string> };
}

export interface Stack {
  registryUrl: string;
  chatUrl: string;
  relayUrl: string;
  stop(): Promise<void>;
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

/** A Worker's Miniflare options from its wrangler config: vars, D1, Durable Objects (SQLite-backed as migrated), service bindings. */
function workerOptions(root: string, config: string, scriptPath: string, vars: Record<string, string>, port: number): WorkerOptions {
  const worker = readConfig(root, config);
  const sqliteClasses = new Set(worker.migrations.flatMap((migration: { new_sqlite_classes?: string[] }) => migration.new_sqlite_classes ?? []));
  return {
    name: worker.name!,
    modules: true,
    scriptPath,
    modulesRoot: dirname(scriptPath),
    compatibilityDate: worker.compatibility_date,
    compatibilityFlags: worker.compatibility_flags,
    bindings: { ...(worker.vars as Record<string, string>), ...vars },
    d1Databases: Object.fromEntries(worker.d1_databases.map((database: { binding: string; database_id?: string }) => [database.binding, database.database_id ?? database.binding])),
    durableObjects: Object.fromEntries(
      worker.durable_objects.bindings.map((binding: { name: string; class_name: string; script_name?: string }) => [binding.name, { className: binding.class_name, scriptName: binding.script_name, useSQLite: sqliteClasses.has(binding.class_name) }]),
    ),
    serviceBindings: Object.fromEntries((worker.services ?? []).map((service: { binding: string; service: string; entrypoint?: string }) => [service.binding, service.entrypoint ? { name: service.service, entrypoint: service.entrypoint } : service.service])),
    unsafeDirectSockets: [{ host: '127.0.0.1', port }],
  };
}

export async function startMiniflareStack(options: MiniflareStackOptions): Promise<Stack> {
  const { root, work, ports, vars } = options;
  const configs = { registry: 'wrangler.toml', chat: 'workers/chat/wrangler.toml', relay: 'bench/chat-relay/wrangler.toml' };
  const [registryScript, chatScript, relayScript] = await Promise.all(
    (['registry', 'chat', 'relay'] as const).map((name) => bundle(root, configs[name], join(work, 'bundle', name))),
  );
  mkdirSync(join(work, 'state'), { recursive: true });
  const log = createWriteStream(join(work, 'workerd.log'));
  const mf = new Miniflare({
    host: '127.0.0.1',
    port: 0,
    // Offline: the placeholder request.cf, not the one Miniflare would download.
    cf: false,
    log: new Log(LogLevel.WARN),
    defaultPersistRoot: join(work, 'state'),
    handleRuntimeStdio(stdout: Readable, stderr: Readable) {
      stdout.pipe(log);
      stderr.pipe(log);
    },
    workers: [
      workerOptions(root, configs.registry, registryScript!, vars.registry, ports.registry),
      workerOptions(root, configs.chat, chatScript!, vars.chat, ports.chat),
      workerOptions(root, configs.relay, relayScript!, vars.relay, ports.relay),
    ],
  });
  try {
    await mf.ready;
    // The registry's schema, statement by statement as `wrangler d1 migrations apply` splits it.
    const db = await mf.getD1Database('DB', readConfig(root, configs.registry).name);
    for (const migration of await readD1Migrations(join(root, 'workers/registry/migrations'))) {
      await db.batch(migration.queries.map((query) => db.prepare(query)));
    }
  } catch (error) {
    await mf.dispose();
    throw error;
  }
  return {
    registryUrl: `http://127.0.0.1:${ports.registry}`,
    chatUrl: `http://127.0.0.1:${ports.chat}`,
    relayUrl: `http://127.0.0.1:${ports.relay}`,
    async stop() {
      await mf.dispose();
      log.end();
    },
  };
}
