import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { unstable_readConfig } from 'wrangler';
import { minSimilarity } from '../../workers/registry/src/search/semantic.ts';

/**
 * Everything builds for Cloudflare's edge offline: each Worker bundles as `wrangler deploy` would (locally
 * and with `--env production`), the production environments declare what the local configs declare, and
 * the Pages site builds with its API URLs baked in and no secret in it. Nothing here talks to Cloudflare.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' };
const out = mkdtempSync(join(tmpdir(), 'rendezvous-deploy-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const WORKERS = [
  { name: 'registry', config: 'wrangler.toml', agent: false },
  { name: 'chat', config: 'workers/chat/wrangler.toml', agent: true },
  { name: 'router', config: 'workers/router/wrangler.toml', agent: true },
  { name: 'specialist', config: 'workers/specialist/wrangler.toml', agent: true },
  { name: 'hosting-vault', config: 'workers/hosting-vault/wrangler.toml', agent: false },
  { name: 'hosting', config: 'workers/hosting/wrangler.toml', agent: true },
];

/**
 * Workers' size limit after compression, counting every module uploaded (the Free plan's 3 MB; Workers Paid
 * allows 10 MB). The hosting Worker needs Paid anyway (Dynamic Workers) and carries Pyodide for Python agents.
 */
// Workers Paid's limit where a Worker needs Paid anyway: hosting (Dynamic Workers, Pyodide). The chat Worker
// asks the registry for offline embeddings rather than carry the word table (docs/decisions/0170).
const MAX_GZIP_BYTES: Record<string, number> = { hosting: 10 * 1024 * 1024 };
const FREE_PLAN_GZIP_BYTES = 3 * 1024 * 1024;

function readConfig(config: string, environment?: string) {
  return unstable_readConfig({ config: join(ROOT, config), env: environment }, { hideWarnings: true });
}

type WranglerConfig = ReturnType<typeof readConfig>;

/** What a deployed Worker binds, by kind, in a comparable form. */
function bindingsOf(config: WranglerConfig) {
  return {
    durable_objects: config.durable_objects.bindings.map((b: { name: string; class_name: string }) => `${b.name}:${b.class_name}`).sort(),
    queue_producers: (config.queues.producers ?? []).map((q: { binding: string; queue: string }) => `${q.binding}:${q.queue}`).sort(),
    queue_consumers: (config.queues.consumers ?? []).map((q: { queue: string }) => q.queue).sort(),
    d1: config.d1_databases.map((d: { binding: string; database_name?: string }) => `${d.binding}:${d.database_name}`).sort(),
    services: (config.services ?? [])
      .map((s: { binding: string; service: string; entrypoint?: string }) => `${s.binding}:${s.service}:${s.entrypoint ?? ''}`)
      .sort(),
    crons: config.triggers.crons ?? [],
  };
}

/** Bundling and building take a while on a small machine. */
const BUILD_TIMEOUT_MS = 300_000;

describe.each(WORKERS)('$name Worker', ({ name, config, agent }) => {
  it(
    'bundles for deployment (wrangler deploy --dry-run), locally and for production (the registry also for its first deploy), within the size limit',
    async () => {
      for (const environment of [undefined, 'production', ...(name === 'registry' ? ['first-deploy'] : [])]) {
        const outdir = join(out, name, environment ?? 'local');
        await run(
          join(ROOT, 'node_modules/.bin/wrangler'),
          ['deploy', '--dry-run', '--outdir', outdir, '-c', config, ...(environment ? ['--env', environment] : [])],
          { cwd: ROOT, env },
        );
        const bundle = readdirSync(outdir).find((file) => file.endsWith('.js'));
        expect(bundle, `${name} ${environment ?? 'local'} bundle`).toBeDefined();
        expect(gzipSync(readFileSync(join(outdir, bundle!))).length).toBeGreaterThan(1000);
        const uploaded = readdirSync(outdir).filter((file) => !file.endsWith('.map') && file !== 'README.md');
        const size = uploaded.reduce((sum, file) => sum + gzipSync(readFileSync(join(outdir, file))).length, 0);
        expect(size).toBeLessThan(MAX_GZIP_BYTES[name] ?? FREE_PLAN_GZIP_BYTES);
      }
    },
    BUILD_TIMEOUT_MS,
  );

  it('has a production environment with the same Worker name and every binding and var the local config has', () => {
    const local = readConfig(config);
    const production = readConfig(config, 'production');
    expect(production.name, 'other Workers bind to it by this name').toBe(local.name);
    const deployed = bindingsOf(production);
    for (const [kind, names] of Object.entries(bindingsOf(local)))
      expect(deployed[kind as keyof typeof deployed], kind).toEqual(expect.arrayContaining(names));
    expect(Object.keys(production.vars).sort()).toEqual(expect.arrayContaining(Object.keys(local.vars)));
    expect(production.compatibility_date).toBe(local.compatibility_date);
  });

  it(`in production, refuses private and loopback webhook URLs${agent ? ', and sends agent messages over the public internet' : ''}`, () => {
    const production = readConfig(config, 'production');
    expect(production.vars.ALLOW_PRIVATE_URLS ?? 'false').toBe('false');
    if (agent) expect(production.compatibility_flags).toContain('global_fetch_strictly_public');
  });

  it('a plain deploy (no --env) refuses private and loopback webhook URLs too: only local development (npm start) allows them', () => {
    expect(readConfig(config).vars.ALLOW_PRIVATE_URLS ?? 'false').toBe('false');
    expect(readFileSync(join(ROOT, 'scripts/stack/local-vars.ts'), 'utf8')).toMatch(/ALLOW_PRIVATE_URLS: 'true'/);
  });

  it('names in docs/deploy.md every production var left empty for the operator to fill in', () => {
    const guide = readFileSync(join(ROOT, 'docs/deploy.md'), 'utf8');
    const empty = Object.entries(readConfig(config, 'production').vars).filter(([, value]) => value === '');
    for (const [variable] of empty) expect(guide, `${name}: ${variable}`).toContain(variable);
  });
});

it('service bindings name Workers of this repository', () => {
  const names = new Set(WORKERS.map(({ config }) => readConfig(config).name));
  for (const { config } of WORKERS) {
    for (const environment of [undefined, 'production']) {
      for (const service of readConfig(config, environment).services ?? [])
        expect(names, `${config}: ${service.binding}`).toContain(service.service);
    }
  }
});

it('deploys from nothing in the order of docs/deploy.md: each deploy binds only Workers already deployed', () => {
  const steps: [config: string, environment: string][] = [
    ['wrangler.toml', 'first-deploy'],
    ['workers/chat/wrangler.toml', 'production'],
    ['workers/hosting-vault/wrangler.toml', 'production'],
    ['workers/hosting/wrangler.toml', 'production'],
    ['wrangler.toml', 'production'],
    ['workers/specialist/wrangler.toml', 'production'],
    ['workers/router/wrangler.toml', 'production'],
  ];
  const guide = readFileSync(join(ROOT, 'docs/deploy.md'), 'utf8');
  const deployed = new Set<string>();
  let position = -1;
  for (const [config, environment] of steps) {
    const worker = readConfig(config, environment);
    for (const service of worker.services ?? [])
      expect(deployed, `${config} --env ${environment}: ${service.binding}`).toContain(service.service);
    deployed.add(worker.name!);
    const command =
      config === 'wrangler.toml' ? `npx wrangler deploy --env ${environment}` : `npx wrangler deploy -c ${config} --env ${environment}`;
    const at = guide.indexOf(command, position + 1);
    expect(at, `docs/deploy.md: ${command}, after the previous step`).toBeGreaterThan(position);
    position = at;
  }
  const first = readConfig('wrangler.toml', 'first-deploy');
  const production = readConfig('wrangler.toml', 'production');
  expect(bindingsOf(first).d1).toEqual(bindingsOf(production).d1);
  expect(first.vars).toEqual(production.vars);
});

it("every registry environment sets a semantic floor its Worker starts with (a bad one fails the Worker's startup)", () => {
  for (const environment of [undefined, 'production', 'first-deploy']) {
    const floor = readConfig('wrangler.toml', environment).vars.SEMANTIC_MIN_SIMILARITY;
    expect(typeof floor, `${environment ?? 'top level'}`).toBe('string');
    expect(() => minSimilarity(floor as string), `${environment ?? 'top level'}`).not.toThrow();
  }
  expect(() => minSimilarity('0,55')).toThrow(/SEMANTIC_MIN_SIMILARITY must be a number from 0 to below 1, not "0,55"/);
  expect(() => minSimilarity('1')).toThrow(/SEMANTIC_MIN_SIMILARITY/);
});

describe('Pages site', () => {
  it(
    'builds with vite into the directory pages/wrangler.toml deploys, with the API URLs set at build time and no secret',
    async () => {
      const pages = readConfig('pages/wrangler.toml');
      expect(pages.pages_build_output_dir).toBeTruthy();
      const outDir = join(out, 'pages');
      const urls = {
        VITE_REGISTRY_URL: 'https://registry.deploy-test.example',
        VITE_CHAT_URL: 'https://chat.deploy-test.example',
        VITE_ROUTER_URL: 'https://router.deploy-test.example',
      };
      await run(join(ROOT, 'node_modules/.bin/vite'), ['build', '--config', 'pages/vite.config.ts', '--outDir', outDir, '--emptyOutDir'], {
        cwd: ROOT,
        env: { ...env, ...urls },
      });
      expect(existsSync(join(outDir, 'index.html'))).toBe(true);
      const code = readdirSync(join(outDir, 'assets'))
        .filter((file) => file.endsWith('.js'))
        .map((file) => readFileSync(join(outDir, 'assets', file), 'utf8'))
        .join('\n');
      for (const url of Object.values(urls)) expect(code).toContain(url);
      // Pages serves the generated _headers: the CSP lets the client call exactly these APIs.
      const headers = readFileSync(join(outDir, '_headers'), 'utf8');
      expect(headers).toContain(`connect-src 'self' ${urls.VITE_ROUTER_URL} ${urls.VITE_REGISTRY_URL} ${urls.VITE_CHAT_URL};`);
      expect(headers).toContain("frame-ancestors 'none'");
      expect(code).not.toMatch(/rdv_[0-9a-f]{16}_/);
      for (const file of [
        '.dev.vars',
        'workers/chat/.dev.vars',
        'workers/router/.dev.vars',
        'workers/specialist/.dev.vars',
        'workers/registry/.dev.vars',
      ]) {
        const path = join(ROOT, file);
        if (!existsSync(path)) continue;
        for (const line of readFileSync(path, 'utf8').split('\n')) {
          const secret = /^\w+="?([^"]{12,})"?$/.exec(line.trim())?.[1];
          if (secret && !secret.startsWith('http')) expect(code, `${file} value in the bundle`).not.toContain(secret);
        }
      }
      // The site is static; Pages Functions added under pages/functions must be built here too (wrangler pages functions build).
      expect(existsSync(join(ROOT, 'pages/functions'))).toBe(false);
    },
    BUILD_TIMEOUT_MS,
  );
});
