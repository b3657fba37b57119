import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bootstrapDevKey } from '../scripts/dev/bootstrap-key.ts';
import { waitForHttp } from '../scripts/stack/process.ts';
import { wranglerDev } from '../scripts/stack/wrangler-dev.ts';
import { startMiniflareStack, type Stack } from './miniflare-stack.ts';
import { startFakeUpstream } from './chat-upstream.ts';
import { barChartSvg, measuredUnder, writeChart } from './svg-chart.ts';

/**
 * bench:chat — what the chat Worker adds to a stream. A local OpenAI-compatible upstream (Node) streams
 * tokens; the same requests go straight to it and through the chat Worker (the real registry checking the
 * key over RPC, the real Durable Object meter). Figures: time to first token (p50/p90, and what the Worker
 * adds) and tokens per second, with the upstream paced at one token per 2 ms (~450 tok/s, several times
 * faster than a hosted model) and unpaced (as fast as sockets go).
 * Targets: < 2 ms added to the first token at p50; >= 95 % of the direct throughput (paced). Beside them, for
 * reading the figures: the runtime's round-trip floor, what a Worker that only relays the stream adds, and the
 * first token through the Responses API (POST /v1/responses, the same path beneath), in the same run.
 *
 * Runtime (BENCH_CHAT_RUNTIME): `miniflare` (default) runs the three Workers in one workerd process through
 * Miniflare's API, each on its own socket (bench/miniflare-stack.ts); service bindings are in-process, as on the
 * edge. `wrangler-dev` runs each in its own `wrangler dev` process, as `npm start` does: that adds wrangler
 * dev's local proxy in front of every Worker and a cross-process hop to every service binding, which the edge
 * does not have (docs/decisions/0006).
 */
const ROOT = resolve(import.meta.dirname, '..');
const PORTS = {
  upstream: 9611,
  registry: 9612,
  chat: 9613,
  relay: 9614,
  registryInspector: 9622,
  chatInspector: 9623,
  relayInspector: 9624,
};
const ADMIN_TOKEN = 'bench-admin-token';
type StackName = 'registry' | 'chat' | 'relay';
const RUNTIMES = {
  miniflare:
    'workerd via Miniflare, the registry, chat and relay Workers in one process, each on its own socket (no dev proxy; service bindings in-process, as on the edge)',
  'wrangler-dev':
    'wrangler dev, one process per Worker (its local proxy in front of each; service bindings cross processes: local-development costs the edge does not have)',
};
const RUNTIME = (process.env.BENCH_CHAT_RUNTIME ?? 'miniflare') as keyof typeof RUNTIMES;
if (!(RUNTIME in RUNTIMES)) throw new Error(`BENCH_CHAT_RUNTIME: one of ${Object.keys(RUNTIMES).join(', ')}`);
const TTFT_RUNS = Number(process.env.BENCH_TTFT_RUNS ?? 300);
const STREAM_TOKENS = Number(process.env.BENCH_STREAM_TOKENS ?? 1000);
const STREAM_RUNS = Number(process.env.BENCH_STREAM_RUNS ?? 5);

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

interface Measured {
  firstTokenMs: number;
  tokens: number;
  streamMs: number;
}

/** How each API streams a content token: a chat chunk's `content`, a Responses `output_text.delta`. */
const TOKEN_MARKS = { chat: '"content":" tok', responses: '"delta":" tok' };

/** Sends one streaming completion (or response) and times the first content token and the whole token stream. */
async function measure(url: string, key: string | null, model: string, api: keyof typeof TOKEN_MARKS = 'chat'): Promise<Measured> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  const body =
    api === 'chat'
      ? { model, messages: [{ role: 'user', content: 'stream please' }], stream: true }
      : { model, input: 'stream please', stream: true };
  const mark = TOKEN_MARKS[api];
  const started = performance.now();
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  if (!response.ok || !response.body) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  const decoder = new TextDecoder();
  let firstAt = 0;
  let tokens = 0;
  let buffered = '';
  for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(bytes, { stream: true });
    const events = buffered.split('\n\n');
    buffered = events.pop()!;
    for (const event of events) {
      if (!event.includes(mark)) continue;
      tokens++;
      if (!firstAt) firstAt = performance.now();
    }
  }
  const ended = performance.now();
  return { firstTokenMs: firstAt - started, tokens, streamMs: ended - firstAt };
}

async function series(runs: number, run: () => Promise<Measured>): Promise<Measured[]> {
  const results: Measured[] = [];
  for (let i = 0; i < runs; i++) results.push(await run());
  return results;
}

/** The three Workers as separate `wrangler dev` processes, sharing one local D1 through --persist-to. */
async function startWranglerDevStack(work: string, upstreamUrl: string, chatVars: Record<string, string>): Promise<Stack<StackName>> {
  const envFile = join(work, 'empty.env');
  writeFileSync(envFile, '');
  execFileSync(
    join(ROOT, 'node_modules/.bin/wrangler'),
    ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', work, '--config', 'wrangler.toml'],
    {
      cwd: ROOT,
      stdio: 'ignore',
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1' },
    },
  );
  const common = { root: ROOT, persistDir: work, envFile, logDir: work };
  const registry = wranglerDev({
    ...common,
    name: 'registry',
    config: 'wrangler.toml',
    port: PORTS.registry,
    inspectorPort: PORTS.registryInspector,
    vars: { ADMIN_TOKEN },
  });
  const chat = wranglerDev({
    ...common,
    name: 'chat',
    config: 'workers/chat/wrangler.toml',
    port: PORTS.chat,
    inspectorPort: PORTS.chatInspector,
    vars: chatVars,
  });
  const relay = wranglerDev({
    ...common,
    name: 'relay',
    config: 'bench/chat-relay/wrangler.toml',
    port: PORTS.relay,
    inspectorPort: PORTS.relayInspector,
    vars: { UPSTREAM_URL: upstreamUrl },
  });
  const stop = async () => {
    await relay.stop();
    await chat.stop();
    await registry.stop();
  };
  try {
    await waitForHttp(registry, '/health');
    await waitForHttp(chat, '/health');
    await waitForHttp(relay, '/health');
  } catch (error) {
    await stop();
    throw error;
  }
  return { urls: { registry: registry.url, chat: chat.url, relay: relay.url }, stop };
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'bench-chat-'));
  const upstream = await startFakeUpstream(PORTS.upstream);
  const upstreamUrl = `http://127.0.0.1:${PORTS.upstream}/v1`;
  const shapes = { short: 'bench-0ms-5', paced: `bench-2ms-${STREAM_TOKENS}`, unpaced: `bench-0ms-${STREAM_TOKENS}` };
  const models = Object.fromEntries(Object.values(shapes).map((model) => [model, { provider: 'openai', base_url: upstreamUrl, model }]));
  const chatVars = { MODEL_MAP: JSON.stringify(models), DEFAULT_RPM: '1000000', DEFAULT_TPM: '1000000000' };
  let stack: Stack<StackName> | undefined;
  try {
    // The registry, the chat Worker and the yardstick (bench/chat-relay): a Worker that only relays the upstream's stream.
    stack =
      RUNTIME === 'wrangler-dev'
        ? await startWranglerDevStack(work, upstreamUrl, chatVars)
        : await startMiniflareStack({
            root: ROOT,
            work,
            workers: {
              registry: { config: 'wrangler.toml', port: PORTS.registry, vars: { ADMIN_TOKEN } },
              chat: { config: 'workers/chat/wrangler.toml', port: PORTS.chat, vars: chatVars },
              relay: { config: 'bench/chat-relay/wrangler.toml', port: PORTS.relay, vars: { UPSTREAM_URL: upstreamUrl } },
            },
          });
    const { chat: chatUrl, relay: relayUrl } = stack.urls;
    const key = await bootstrapDevKey({ registryUrl: stack.urls.registry, adminToken: ADMIN_TOKEN, name: 'bench', permissions: ['chat'] });
    const direct = (model: string) => () => measure(`${upstreamUrl}/chat/completions`, null, model);
    const through = (model: string) => () => measure(`${chatUrl}/v1/chat/completions`, key, model);
    const relayed = (model: string) => () => measure(`${relayUrl}/v1/chat/completions`, null, model);
    const responses = (model: string) => () => measure(`${chatUrl}/v1/responses`, key, model, 'responses');

    // Warm the paths (isolate start, DO creation, connection pools) before measuring.
    await series(20, direct(shapes.short));
    await series(20, through(shapes.short));
    await series(20, relayed(shapes.short));
    await series(20, responses(shapes.short));

    // Time to first token, interleaved so the paths see the same machine load.
    const ttft = { direct: [] as number[], through: [] as number[], relayed: [] as number[], responses: [] as number[] };
    for (let i = 0; i < TTFT_RUNS; i++) {
      ttft.direct.push((await direct(shapes.short)()).firstTokenMs);
      ttft.through.push((await through(shapes.short)()).firstTokenMs);
      ttft.relayed.push((await relayed(shapes.short)()).firstTokenMs);
      ttft.responses.push((await responses(shapes.short)()).firstTokenMs);
    }
    const relay50 = percentile(ttft.relayed, 50) - percentile(ttft.direct, 50);
    const added50 = percentile(ttft.through, 50) - percentile(ttft.direct, 50);
    const added90 = percentile(ttft.through, 90) - percentile(ttft.direct, 90);

    // The floor any Worker pays here: one round trip into the runtime (GET /health, no key, no upstream)
    // against one round trip to the Node upstream.
    const roundTrip = async (url: string) => {
      const started = performance.now();
      await (await fetch(url)).arrayBuffer();
      return performance.now() - started;
    };
    const floor = { direct: [] as number[], worker: [] as number[] };
    for (let i = 0; i < TTFT_RUNS; i++) {
      floor.direct.push(await roundTrip(`http://127.0.0.1:${PORTS.upstream}/stats`));
      floor.worker.push(await roundTrip(`${chatUrl}/health`));
    }
    const floor50 = percentile(floor.worker, 50) - percentile(floor.direct, 50);

    const rate = async (run: () => Promise<Measured>) => {
      const results = await series(STREAM_RUNS, run);
      if (results.some((r) => r.tokens !== STREAM_TOKENS)) throw new Error('a stream lost tokens');
      return results.reduce((sum, r) => sum + r.tokens, 0) / (results.reduce((sum, r) => sum + r.streamMs, 0) / 1000);
    };
    const paced = {
      direct: await rate(direct(shapes.paced)),
      through: await rate(through(shapes.paced)),
      relayed: await rate(relayed(shapes.paced)),
    };
    const unpaced = { direct: await rate(direct(shapes.unpaced)), through: await rate(through(shapes.unpaced)) };
    const share = paced.through / paced.direct;

    const ms = (value: number) => `${value.toFixed(2)} ms`;
    console.log(
      `chat Worker vs the same upstream direct; ${TTFT_RUNS} first-token runs, ${STREAM_RUNS} streams of ${STREAM_TOKENS} tokens per figure`,
    );
    console.log(`runtime (BENCH_CHAT_RUNTIME=${RUNTIME}): ${RUNTIMES[RUNTIME]}`);
    console.log(`time to first token   direct  p50 ${ms(percentile(ttft.direct, 50))}  p90 ${ms(percentile(ttft.direct, 90))}`);
    console.log(`                      worker  p50 ${ms(percentile(ttft.through, 50))}  p90 ${ms(percentile(ttft.through, 90))}`);
    console.log(
      `                      added   p50 ${ms(added50)}  p90 ${ms(added90)}    target < 2 ms at p50: ${added50 < 2 ? 'PASS' : 'FAIL'}`,
    );
    console.log(
      `                      of which the local runtime's round-trip floor (GET /health vs the upstream) p50 ${ms(floor50)}; the Worker's own work p50 ${ms(added50 - floor50)}`,
    );
    console.log(
      `                      a Worker that only relays the stream (bench/chat-relay) adds p50 ${ms(relay50)}: the chat Worker adds p50 ${ms(added50 - relay50)} beyond it`,
    );
    console.log(
      `responses API         worker  p50 ${ms(percentile(ttft.responses, 50))}  p90 ${ms(percentile(ttft.responses, 90))}    added p50 ${ms(percentile(ttft.responses, 50) - percentile(ttft.direct, 50))}; beyond chat completions p50 ${ms(percentile(ttft.responses, 50) - percentile(ttft.through, 50))}`,
    );
    console.log(
      `throughput, paced     direct ${paced.direct.toFixed(0)} tok/s  worker ${paced.through.toFixed(0)} tok/s  = ${(share * 100).toFixed(1)} %    target >= 95 %: ${share >= 0.95 ? 'PASS' : 'FAIL'}`,
    );
    console.log(
      `                      a Worker that only relays the stream ${paced.relayed.toFixed(0)} tok/s  = ${((paced.relayed / paced.direct) * 100).toFixed(1)} %`,
    );
    console.log(
      `throughput, unpaced   direct ${unpaced.direct.toFixed(0)} tok/s  worker ${unpaced.through.toFixed(0)} tok/s  = ${((unpaced.through / unpaced.direct) * 100).toFixed(1)} %    (local runtime's per-chunk cost; informational)`,
    );
    console.log(
      `upstream streams opened ${upstream.stats.opened}, finished ${upstream.stats.finished}, cut by a client ${upstream.stats.aborted}`,
    );
    const added = (peer: number[], at: number) => percentile(peer, at) - percentile(ttft.direct, at);
    const chart = writeChart(
      join(import.meta.dirname, 'charts/chat-ttft-added.svg'),
      barChartSvg({
        title: `Time to first token added over the upstream`,
        note: measuredUnder(`chat Worker (${RUNTIME})`, `${TTFT_RUNS} first tokens per contender, one local upstream`),
        yLabel: 'ms added',
        groups: ['p50', 'p90'],
        series: [
          { name: 'bare relay Worker', values: [added(ttft.relayed, 50), added(ttft.relayed, 90)] },
          { name: 'chat Worker', values: [added50, added90] },
          { name: 'Responses API', values: [added(ttft.responses, 50), added(ttft.responses, 90)] },
          { name: 'runtime floor', values: [floor50, percentile(floor.worker, 90) - percentile(floor.direct, 90)] },
        ],
      }),
    );
    console.log(`chart: ${chart}`);
    process.exitCode = added50 < 2 && share >= 0.95 ? 0 : 1;
  } finally {
    await stack?.stop();
    upstream.server.close();
    if (process.env.BENCH_KEEP) console.log(`logs kept in ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

await main();
