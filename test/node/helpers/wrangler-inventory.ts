import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';

/** Every wrangler config of the platform: the registry's at the root, each Worker's, the client's Pages project. */
const WRANGLER_CONFIGS = [
  'wrangler.toml',
  'workers/chat/wrangler.toml',
  'workers/hosting/wrangler.toml',
  'workers/hosting-vault/wrangler.toml',
  'workers/router/wrangler.toml',
  'workers/specialist/wrangler.toml',
  'pages/wrangler.toml',
];

/** One thing a config declares, as docs/architecture.md must name it. */
export interface Declared {
  worker: string;
  kind: 'binding' | 'durable object' | 'queue' | 'cron';
  name: string;
}

type Table = Record<string, unknown>;
const list = (value: unknown): Table[] => (Array.isArray(value) ? (value as Table[]) : []);
const text = (value: unknown): string[] => (typeof value === 'string' ? [value] : []);

/** What one environment of a config (the top level or an [env.*] table) declares. */
function declaredIn(worker: string, config: Table): Declared[] {
  const found: Declared[] = [];
  const add = (kind: Declared['kind'], names: string[]) => {
    for (const name of names) found.push({ worker, kind, name });
  };
  const durableObjects = (config.durable_objects as Table | undefined)?.bindings;
  const queues = (config.queues as Table | undefined) ?? {};
  for (const item of list(config.d1_databases)) add('binding', text(item.binding));
  for (const item of list(config.services)) add('binding', text(item.binding));
  for (const item of list(config.worker_loaders)) add('binding', text(item.binding));
  for (const item of list(config.vectorize)) add('binding', text(item.binding));
  for (const item of list(config.kv_namespaces)) add('binding', text(item.binding));
  for (const item of list(config.r2_buckets)) add('binding', text(item.binding));
  for (const item of list(config.ratelimits)) add('binding', text(item.name));
  add('binding', text((config.ai as Table | undefined)?.binding));
  for (const item of list(durableObjects)) {
    add('binding', text(item.name));
    add('durable object', text(item.class_name));
  }
  for (const item of list(queues.producers)) {
    add('binding', text(item.binding));
    add('queue', text(item.queue));
  }
  for (const item of list(queues.consumers)) add('queue', [...text(item.queue), ...text(item.dead_letter_queue)]);
  const crons = (config.triggers as Table | undefined)?.crons;
  add('cron', Array.isArray(crons) ? (crons as string[]) : []);
  return found;
}

/** The Workers (and Pages project) the configs name, and everything they declare in any environment, once each. */
export function wranglerInventory(root: string): { workers: string[]; declared: Declared[] } {
  const workers: string[] = [];
  const seen = new Map<string, Declared>();
  for (const path of WRANGLER_CONFIGS) {
    const config = parse(readFileSync(join(root, path), 'utf8')) as Table;
    const worker = String(config.name);
    workers.push(worker);
    const environments = [config, ...Object.values((config.env as Table | undefined) ?? {}).map((env) => env as Table)];
    for (const environment of environments) {
      for (const item of declaredIn(worker, environment)) seen.set(`${item.worker} ${item.kind} ${item.name}`, item);
    }
  }
  return { workers, declared: [...seen.values()] };
}
